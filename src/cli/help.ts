/**
 * One runnable example per leaf command, with what it needs first and the files it writes: shown
 * under each command's `--help`, in docs/cli.md (generated from the program), and run by
 * test/cli/examples-*.test.ts, which check each example's output against `prints`.
 *
 * Every example runs from the repository root after the Quickstart (`npm ci`), reading the
 * fixtures under test/ and writing under `kfbench-examples/`; the ones that use the mini sets or
 * an earlier example's output say so in `needs`. `EXAMPLES` is in an order that runs them all.
 */

export interface Example {
  /** The command's path: "hero track rebuild". */
  command: string;
  /** The full line, as typed: "npx kfbench …". */
  line: string;
  /** What must run first (earlier examples), or nothing. */
  needs?: string;
  /** Command lines to run first, shown under "Needs first" and run by the test before the example. */
  before?: readonly string[];
  /** Files or folders it writes (nothing when absent: it prints only). */
  writes?: string;
  /** What its output (stdout) matches. */
  prints: RegExp;
  /** Runs until stopped (Ctrl-C); the test stops it once `prints` matched. */
  untilStopped?: boolean;
}

/** Where the examples write: a folder of the repository root (git-ignored). */
export const EXAMPLES_DIR = 'kfbench-examples';
const E = EXAMPLES_DIR;
const F = 'test/fixtures';
const MH = `${E}/mini-hero`;
const D = `${MH}/heroframe`;
const MC = `${E}/mini-compass`;
const CASES = `${MC}/cases.jsonl`;
const NEEDS_HERO = `the mini HeroFrame set: npx kfbench hero mini --out ${MH}`;
const NEEDS_COMPASS = `the mini Compass set: npx kfbench compass mini --out ${MC}`;
const NEEDS_READER = `the mini HeroFrame set and its fitted reader: npx kfbench hero fit-reader --data ${D} --out ${E}/reader.json`;
const READER = `local:${E}/reader.json`;
const kf = (args: string) => `npx kfbench ${args}`;

export const EXAMPLES: readonly Example[] = [
  {
    command: 'hero mini',
    line: kf(`hero mini --out ${MH}`),
    writes: `${MH}/lsmdc/, stills/, track/ and heroframe/ (a dataset root in the published layout); nothing when it is there already`,
    prints: /^dataset\s+\S+heroframe$/m,
  },
  {
    command: 'compass mini',
    line: kf(`compass mini --out ${MC}`),
    writes: `${MC}/cases.jsonl, keyframes/<case_id>/<kf_id>.png, videos/<model>/<case_id>__<prompt_mode>.mp4`,
    prints: /^cases\s+\S+cases\.jsonl\nvideos\s+\S+videos \(faithful, /m,
  },
  {
    command: 'media probe',
    line: kf(`media probe ${F}/media/shots.mp4 --json`),
    prints: /"frames": 264/,
  },
  {
    command: 'media dhash',
    line: kf(`media dhash ${F}/media/base.png ${F}/media/coffee.png --json`),
    prints: /"dhash": "[0-9a-f]{16}"/,
  },
  {
    command: 'media compare',
    line: kf(`media compare ${F}/media/base.png ${F}/media/blur.png --json`),
    prints: /"psnr_db": \d+\.\d+,[\s\S]*"ssim": 0\.\d+/,
  },
  {
    command: 'media shots',
    line: kf(`media shots ${F}/media/fade.mp4 --json`),
    prints: /"kind": "gradual"/,
  },
  {
    command: 'media sample',
    line: kf(`media sample ${F}/media/shots.mp4 --at 0.5,2.25 --width 160 --out ${E}/frames --json`),
    writes: `${E}/frames/<frame>.jpg (named by frame index)`,
    prints: /"frame": 12,[\s\S]*"frame": 54,/,
  },
  {
    command: 'media grid',
    line: kf(
      `media grid ${F}/media/base.png ${F}/media/coffee.png ${F}/media/mandel.png --labels --out ${E}/grid.jpg`,
    ),
    writes: `${E}/grid.jpg`,
    prints: /grid\.jpg/,
  },
  {
    command: 'stats bt',
    line: kf(`stats bt ${F}/stats/bt-four-mixed.jsonl --json`),
    prints: /"mle_exists": true/,
  },
  {
    command: 'stats rank',
    line: kf(`stats rank ${F}/stats/rank-n5-ties.json --json`),
    prints: /"kendall_tau_b": /,
  },
  {
    command: 'stats kripp',
    line: kf(`stats kripp ${F}/stats/kripp-2011.json --level ordinal --json`),
    prints: /"alpha": 0\.\d+/,
  },
  {
    command: 'stats eer',
    line: kf(`stats eer ${F}/stats/eer-ties.jsonl --at 0.8 --json`),
    prints: /"eer": /,
  },
  {
    command: 'embed similarity',
    line: kf(
      `embed similarity ${F}/embed/img0.png ${F}/embed/img1.png --embedder onnx:${F}/embed/tiny-vit.onnx`,
    ),
    prints: /^cosine -?[01]\.\d{6} {2}\(onnx:tiny-vit; /,
  },
  {
    command: 'embed calibrate',
    line: kf(`embed calibrate --pairs ${F}/embed/pairs.jsonl --gamma 0.8 --json`),
    prints: /"threshold": /,
  },
  {
    command: 'judge pair',
    line: kf(
      `judge pair ${F}/media/base.png ${F}/media/blur.png --judge local:${F}/judge/reader.json --cache ${E}/judge-cache.sqlite --json`,
    ),
    writes: `${E}/judge-cache.sqlite (the answers, so that asking again costs nothing)`,
    prints: /"winner": "A"/,
  },
  {
    command: 'judge insert',
    line: kf(
      `judge insert ${F}/media/base.png --chain ${F}/media/astronaut.png,${F}/media/coffee.png,${F}/media/blur.png --judge local:${F}/judge/reader.json --protocol binary --json`,
    ),
    prints: /"position": [0-3]/,
  },
  {
    command: 'cache stats',
    line: kf(`cache stats --cache ${E}/judge-cache.sqlite`),
    needs: `an answer in the cache: the judge pair example`,
    prints: /^\d+ answers \(0 unresolved\)[\s\S]*local:reader-\w+ pairwise: \d+/,
  },
  {
    command: 'cache export',
    line: kf(`cache export --cache ${E}/judge-cache.sqlite`),
    needs: `an answer in the cache: the judge pair example`,
    prints: /^\{"answer":\{"winner":"[AB]"/m,
  },
  {
    command: 'cache prune',
    line: kf(`cache prune --cache ${E}/judge-cache.sqlite --unresolved`),
    needs: `a cache: the judge pair example`,
    prints: /^deleted 0 answers$/m,
  },
  {
    command: 'dev vlm-emulator',
    line: kf('dev vlm-emulator --port 0'),
    prints: /VLM emulator \(not a model\) for "kfbench-emulator" at http:\/\/127\.0\.0\.1:\d+\/v1/,
    untilStopped: true,
  },
  {
    command: 'hero validate',
    line: kf(`hero validate --data ${D}`),
    needs: NEEDS_HERO,
    prints: /^6 films, \d+ chains, /,
  },
  {
    command: 'hero inspect',
    line: kf(`hero inspect --data ${D}`),
    needs: NEEDS_HERO,
    prints: /^every field kfbench needs was found$/m,
  },
  {
    command: 'hero check-selections',
    line: kf(`hero check-selections ${F}/hero/selections.jsonl --data ${D}`),
    needs: NEEDS_HERO,
    prints: /^2 films, 3 frames$/m,
  },
  {
    command: 'hero frames locate',
    line: kf(`hero frames locate --data ${D} --movie 9001_Astronaut_Diaries --time 12.5,31.2`),
    needs: NEEDS_HERO,
    prints: /^12\n31\n$/,
  },
  {
    command: 'hero track rebuild',
    line: kf(`hero track rebuild --lsmdc ${MH}/lsmdc --data ${D} --out ${E}/track --jobs 2`),
    needs: NEEDS_HERO,
    writes: `${E}/track/<movie_id>/<frame_idx>.jpg and <movie_id>/.done.json per film`,
    prints: /^rebuilt 6 films \(\d+ frames\)/m,
  },
  {
    command: 'hero track verify',
    line: kf(`hero track verify --track ${E}/track --data ${D}`),
    needs: 'a rebuilt track: the hero track rebuild example',
    prints: /^ok +9001_Astronaut_Diaries +24\/24 match/m,
  },
  {
    command: 'hero track make-index',
    line: kf(`hero track make-index --track ${E}/track --data ${D}`),
    needs: 'a rebuilt track: the hero track rebuild example',
    writes: `${D}/frame_track/track_index.jsonl.zst and verify_dhash.jsonl.zst`,
    prints: /^indexed \d+ frames of 6 films; 144 verify hashes$/m,
  },
  {
    command: 'hero select',
    line: kf(
      `hero select --method hecate-like --data ${D} --track ${MH}/track --out ${E}/hecate.jsonl --k 3`,
    ),
    needs: NEEDS_HERO,
    writes: `${E}/hecate.jsonl (one line per film: movie_id and frames [{rank, frame_idx}])`,
    prints: /^hecate-like: 18 frames for 6 films → /,
  },
  {
    command: 'hero fit-reader',
    line: kf(`hero fit-reader --data ${D} --out ${E}/reader.json`),
    needs: NEEDS_HERO,
    writes: `${E}/reader.json (use it as --judge local:${E}/reader.json)`,
    prints:
      /^fitted on \d+ confident pairs of 6 films → [\s\S]*5-fold cross-validated agreement \(folds by film\): [\d.]+ %/,
  },
  {
    command: 'hero build',
    line: kf(
      `hero build --data ${D} --lsmdc ${MH}/lsmdc --stills ${MH}/stills --judge ${READER} --chains-per-film 2`,
    ),
    needs: NEEDS_READER,
    writes: `${D}/data/chains.jsonl, images/, images/image_sha256.jsonl, stats/build_report.json (with --learn-rubric also data/rubrics.jsonl and stats/rubric_proposals.jsonl)`,
    prints: /^built 12 chains for 6 films with local:reader-\w+: 180 pairs, /,
  },
  {
    command: 'hero check-reader',
    line: kf(`hero check-reader --data ${D} --judge ${READER}`),
    needs: NEEDS_READER,
    prints:
      /^local:reader-\w+, listwise: places \d+\/\d+ chain images exactly where their chain has them = [\d.]+ % \(95 % Wilson /,
  },
  {
    command: 'hero analyze corpus',
    line: kf(`hero analyze corpus --data ${D}`),
    needs: NEEDS_HERO,
    prints: /^6 films, \d+ chains, /,
  },
  {
    command: 'hero analyze position',
    line: kf(`hero analyze position --data ${D}`),
    needs: NEEDS_HERO,
    prints: /^\d+ sampled chain images; Spearman ρ/,
  },
  {
    command: 'hero analyze human',
    line: kf(`hero analyze human --pairs ${F}/hero/human-pairs.jsonl --data ${D} --judge ${READER}`),
    needs: 'the chains of the hero build example (the made-up human pairs name their images)',
    prints: /^without the rubric: \d+\/\d+ = /m,
  },
  {
    command: 'hero analyze rubric-swap',
    line: kf(`hero analyze rubric-swap --data ${D} --judge ${READER}`),
    needs: NEEDS_READER,
    prints: /^own rubric [\d.]+ %, swapped [\d.]+ %, none [\d.]+ %$/m,
  },
  {
    command: 'hero evaluate',
    line: kf(
      `hero evaluate --selections ${E}/hecate.jsonl --data ${D} --track ${MH}/track --judge ${READER} --include-stills --out ${E}/hero-eval`,
    ),
    needs: `selections and a reader: the hero select and hero fit-reader examples`,
    writes: `${E}/hero-eval/summary.json, run.json, per_film.csv, insertions.jsonl, report.md, report.html`,
    prints: /^stills\s+local:reader-\w+\s+0\.\d{3}[\s\S]*^hecate\s+local:reader-/m,
  },
  {
    command: 'compass init',
    line: kf(`compass init --videos ${MC}/videos/faithful --out ${E}/my-compass/cases.jsonl`),
    needs: NEEDS_COMPASS,
    writes: `${E}/my-compass/cases.jsonl and ${E}/my-compass/keyframes/<case_id>/kf01.png …`,
    prints: /^wrote 8 case skeleton\(s\) to /,
  },
  {
    command: 'compass validate',
    line: kf(`compass validate --cases ${CASES}`),
    needs: NEEDS_COMPASS,
    prints: /^8 cases, 60 keyframes: 4 multi_shot, 4 one_take/,
  },
  {
    command: 'compass response',
    line: kf(
      `compass response --cases ${CASES} --case-id ot-06 --video ${MC}/videos/swapped/ot-06__minimal.mp4`,
    ),
    needs: NEEDS_COMPASS,
    prints: /^ordering\s+0\.833$/m,
  },
  {
    command: 'compass score',
    line: kf(
      `compass score --cases ${CASES} --videos ${MC}/videos --model faithful flash --out ${E}/compass-response`,
    ),
    needs: NEEDS_COMPASS,
    writes: `${E}/compass-response/response.jsonl, summary.json, run.json; the scan cache ${E}/.cache/kfbench/scan-cache.sqlite`,
    prints: /^faithful\s+16\s+16\/16\s+1\.000[\s\S]*^flash\s+16\s+16\/16\s/m,
  },
  {
    command: 'compass sensitivity',
    line: kf(
      `compass sensitivity --cases ${CASES} --videos ${MC}/videos --model faithful flash --out ${E}/compass-response`,
    ),
    needs: `${NEEDS_COMPASS} (after the compass score example it decodes nothing)`,
    writes: `${E}/compass-response/sensitivity.json`,
    prints: /^32 outputs, 240 keyframes, 2 models, 125 settings[\s\S]*lowest Spearman ρ of the model ranking/,
  },
  {
    command: 'compass grid',
    line: kf(`compass grid --cases ${CASES} --case-id ms-09 --out ${E}/compass-grid.jpg`),
    needs: NEEDS_COMPASS,
    writes: `${E}/compass-grid.jpg`,
    prints: /compass-grid\.jpg/,
  },
  {
    command: 'compass prompts',
    line: kf(`compass prompts --cases ${CASES} --case-id ms-03 --modes segment_specific`),
    needs: NEEDS_COMPASS,
    prints: /^== ms-03 · segment_specific \(compass-gen-segment_specific-multi_shot [0-9a-f]{12}\)/,
  },
  {
    command: 'compass evaluate',
    line: kf(
      `compass evaluate --cases ${CASES} --videos ${MC}/videos --model faithful blurred --judge openai:my-vlm@http://127.0.0.1:8000/v1 --dry-run`,
    ),
    needs: `${NEEDS_COMPASS}; without --dry-run, a judge server (see the dev vlm-emulator example)`,
    writes:
      'nothing with --dry-run; else --out (compass-eval/): checklists.jsonl, response.jsonl, summary.json, evaluation.jsonl, leaderboard.json, run.json, judge-cache.sqlite; the scan cache .cache/kfbench/scan-cache.sqlite beside --out',
    prints: /^total: \d+ calls \(\d+ checklist, \d+ segment, \d+ grouped\), [\s\S]*nothing was asked$/m,
  },
  {
    command: 'compass report',
    line: kf(`compass report --eval ${F}/compass/eval`),
    prints: /^faithful\s+0\.985/m,
  },
  {
    command: 'compass export-scores',
    line: kf(`compass export-scores --results ${E}/compass-response --out ${E}/scores.jsonl`),
    needs: 'a results folder: the compass score example',
    writes: `${E}/scores.jsonl ({case_id, model, dimension, score} per line)`,
    prints: /^\d+ scores \(8 cases × 2 models × 8 dimensions\) → /m,
  },
  {
    command: 'compass align',
    line: kf(
      `compass align --judgments ${F}/compass/align/judgments.jsonl --scores ${F}/compass/align/scores.jsonl`,
    ),
    prints: /^== keyframe_fidelity: agreement /m,
  },
  {
    command: 'merge hero',
    line: kf(`merge hero ${E}/shard-1 ${E}/shard-2 --out ${E}/hero-merged`),
    needs: 'the hero select and hero fit-reader examples, then two shards of an evaluation',
    before: [1, 2].map((k) =>
      kf(
        `hero evaluate --selections ${E}/hecate.jsonl --data ${D} --track ${MH}/track --judge ${READER} --shard ${k}/2 --out ${E}/shard-${k} --cache ${E}/shard-${k}/cache.sqlite`,
      ),
    ),
    writes: `${E}/hero-merged/ (the files hero evaluate writes, for every film)`,
    prints: /^merged 2 shard\(s\): 6 films, 36 insertions$/m,
  },
  {
    command: 'cache merge',
    line: kf(
      `cache merge ${E}/shard-1/cache.sqlite ${E}/shard-2/cache.sqlite --out ${E}/merged-cache.sqlite`,
    ),
    needs: "two shards' caches: the runs under the merge hero example",
    writes: `${E}/merged-cache.sqlite`,
    prints: /^36 answers from 2 caches \(0 held by more than one\), 0 conflicts; written to /,
  },
  {
    command: 'merge compass',
    line: kf(`merge compass ${E}/cshard-1 ${E}/cshard-2 --out ${E}/compass-merged`),
    needs: `${NEEDS_COMPASS}, then two shards of a scoring (with the compass score example's scan cache they decode nothing)`,
    before: [1, 2].map((k) =>
      kf(
        `compass score --cases ${CASES} --videos ${MC}/videos --model faithful flash --shard ${k}/2 --out ${E}/cshard-${k} --scan-cache ${E}/.cache/kfbench/scan-cache.sqlite`,
      ),
    ),
    writes: `${E}/compass-merged/ (the files compass score writes, for every case)`,
    prints: /^merged 2 compass score shard\(s\): 8 cases, 32 videos; results in /,
  },
  {
    command: 'serve',
    line: kf(`serve --data ${D} --track ${MH}/track --results ${E}/hero-eval --export ${E}/site`),
    needs:
      'the hero evaluate example (add --cases, --videos and --compass-results for Compass; without --export it serves at http://127.0.0.1:8377/ until Ctrl-C)',
    writes: `${E}/site/index.html with a page per film and the images they show`,
    prints: /^wrote \d+ pages, \d+ files and \d+ frames\/proxies to \S+site\nopen \S+site\/index\.html$/m,
  },
  {
    command: 'demo',
    line: kf(`demo --out ${E}/demo --media-only`),
    writes: `${E}/demo/ (without --media-only: both mini sets, chains, selections, both leaderboards)`,
    prints: /^== media building blocks$/m,
  },
];

export function exampleOf(command: string): Example | undefined {
  return EXAMPLES.find((e) => e.command === command);
}

/** The text under a command's --help. */
export function helpText(e: Example): string {
  return [
    '',
    'Example (from the repository root):',
    `  ${e.line}`,
    ...(e.needs ? [`Needs first: ${e.needs}`] : []),
    ...(e.before ?? []).map((l) => `  ${l}`),
    `Writes: ${e.writes ?? 'nothing (prints only)'}`,
  ].join('\n');
}
