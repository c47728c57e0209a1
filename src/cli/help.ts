/**
 * One runnable example per leaf command, with what it needs first and the files it writes: shown
 * under each command's `--help`, in docs/cli.md (generated from the program), and run by
 * test/cli/examples-*.test.ts, which check each example's output against `prints`.
 *
 * Every example runs from the repository root after the Quickstart (`npm ci`), reading the
 * fixtures under test/ and writing under `kfbench-examples/`; the ones that use the mini sets or
 * an earlier example's output say so in `needs`. `EXAMPLES` is in an order that runs them all.
 */

import { FOLDER_OUTPUTS, folderFilesLines } from './folder-files.js';

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
const OUT = EXAMPLES_DIR;
const FIXTURES = 'test/fixtures';
const MINI_HERO = `${OUT}/mini-hero`;
const HERO_DATA = `${MINI_HERO}/heroframe`;
const MINI_COMPASS = `${OUT}/mini-compass`;
const CASES = `${MINI_COMPASS}/cases.jsonl`;
const NEEDS_HERO = `the mini HeroFrame set: npx kfbench hero mini --out ${MINI_HERO}`;
const NEEDS_COMPASS = `the mini Compass set: npx kfbench compass mini --out ${MINI_COMPASS}`;
const NEEDS_READER = `the mini HeroFrame set and its fitted reader: npx kfbench hero fit-reader --data ${HERO_DATA} --out ${OUT}/reader.json`;
const READER = `local:${OUT}/reader.json`;
const kf = (args: string) => `npx kfbench ${args}`;

export const EXAMPLES: readonly Example[] = [
  {
    command: 'hero mini',
    line: kf(`hero mini --out ${MINI_HERO}`),
    writes: `${MINI_HERO}/lsmdc/, stills/, track/ and heroframe/ (a dataset root in the published layout); nothing when it is there already`,
    prints: /^dataset\s+\S+heroframe$/m,
  },
  {
    command: 'compass mini',
    line: kf(`compass mini --out ${MINI_COMPASS}`),
    writes: `${MINI_COMPASS}/cases.jsonl, keyframes/<case_id>/<kf_id>.png, videos/<model>/<case_id>__<prompt_mode>.mp4`,
    prints: /^cases\s+\S+cases\.jsonl\nvideos\s+\S+videos \(faithful, /m,
  },
  {
    command: 'media probe',
    line: kf(`media probe ${FIXTURES}/media/shots.mp4 --json`),
    prints: /"frames": 264/,
  },
  {
    command: 'media dhash',
    line: kf(`media dhash ${FIXTURES}/media/base.png ${FIXTURES}/media/coffee.png --json`),
    prints: /"dhash": "[0-9a-f]{16}"/,
  },
  {
    command: 'media compare',
    line: kf(`media compare ${FIXTURES}/media/base.png ${FIXTURES}/media/blur.png --json`),
    prints: /"psnr_db": \d+\.\d+,[\s\S]*"ssim": 0\.\d+/,
  },
  {
    command: 'media shots',
    line: kf(`media shots ${FIXTURES}/media/fade.mp4 --json`),
    prints: /"kind": "gradual"/,
  },
  {
    command: 'media sample',
    line: kf(`media sample ${FIXTURES}/media/shots.mp4 --at 0.5,2.25 --width 160 --out ${OUT}/frames --json`),
    writes: `${OUT}/frames/<frame>.jpg (named by frame index)`,
    prints: /"frame": 12,[\s\S]*"frame": 54,/,
  },
  {
    command: 'media grid',
    line: kf(
      `media grid ${FIXTURES}/media/base.png ${FIXTURES}/media/coffee.png ${FIXTURES}/media/mandel.png --labels --out ${OUT}/grid.jpg`,
    ),
    writes: `${OUT}/grid.jpg`,
    prints: /grid\.jpg/,
  },
  {
    command: 'stats bt',
    line: kf(`stats bt ${FIXTURES}/stats/bt-four-mixed.jsonl --json`),
    prints: /"mle_exists": true/,
  },
  {
    command: 'stats rank',
    line: kf(`stats rank ${FIXTURES}/stats/rank-n5-ties.json --json`),
    prints: /"kendall_tau_b": /,
  },
  {
    command: 'stats kripp',
    line: kf(`stats kripp ${FIXTURES}/stats/kripp-2011.json --level ordinal --json`),
    prints: /"alpha": 0\.\d+/,
  },
  {
    command: 'stats eer',
    line: kf(`stats eer ${FIXTURES}/stats/eer-ties.jsonl --at 0.8 --json`),
    prints: /"eer": /,
  },
  {
    command: 'embed similarity',
    line: kf(
      `embed similarity ${FIXTURES}/embed/img0.png ${FIXTURES}/embed/img1.png --embedder onnx:${FIXTURES}/embed/tiny-vit.onnx`,
    ),
    prints: /^cosine -?[01]\.\d{6} {2}\(onnx:tiny-vit; /,
  },
  {
    command: 'embed calibrate',
    line: kf(`embed calibrate --pairs ${FIXTURES}/embed/pairs.jsonl --gamma 0.8 --json`),
    prints: /"threshold": /,
  },
  {
    command: 'judge pair',
    line: kf(
      `judge pair ${FIXTURES}/media/base.png ${FIXTURES}/media/blur.png --judge local:${FIXTURES}/judge/reader.json --cache ${OUT}/judge-cache.sqlite --json`,
    ),
    writes: `${OUT}/judge-cache.sqlite (the answers, so that asking again costs nothing)`,
    prints: /"winner": "A"/,
  },
  {
    command: 'judge insert',
    line: kf(
      `judge insert ${FIXTURES}/media/base.png --chain ${FIXTURES}/media/astronaut.png,${FIXTURES}/media/coffee.png,${FIXTURES}/media/blur.png --judge local:${FIXTURES}/judge/reader.json --protocol binary --json`,
    ),
    prints: /"position": [0-3]/,
  },
  {
    command: 'cache stats',
    line: kf(`cache stats --cache ${OUT}/judge-cache.sqlite`),
    needs: `an answer in the cache: the judge pair example`,
    prints: /^\d+ answers \(0 unresolved\)[\s\S]*local:reader-\w+ pairwise: \d+/,
  },
  {
    command: 'cache export',
    line: kf(`cache export --cache ${OUT}/judge-cache.sqlite`),
    needs: `an answer in the cache: the judge pair example`,
    prints: /^\{"answer":\{"winner":"[AB]"/m,
  },
  {
    command: 'cache prune',
    line: kf(`cache prune --cache ${OUT}/judge-cache.sqlite --unresolved`),
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
    line: kf(`hero validate --data ${HERO_DATA}`),
    needs: NEEDS_HERO,
    prints: /^6 films, \d+ chains, /,
  },
  {
    command: 'hero inspect',
    line: kf(`hero inspect --data ${HERO_DATA}`),
    needs: NEEDS_HERO,
    prints: /^every field kfbench needs was found$/m,
  },
  {
    command: 'hero check-selections',
    line: kf(`hero check-selections ${FIXTURES}/hero/selections.jsonl --data ${HERO_DATA} --missing zero`),
    needs: NEEDS_HERO,
    prints: /^2 of 6 films selected \(coverage 33\.3 %\), 3 frames$/m,
  },
  {
    command: 'hero frames locate',
    line: kf(`hero frames locate --data ${HERO_DATA} --movie 9001_Astronaut_Diaries --time 12.5,31.2`),
    needs: NEEDS_HERO,
    prints: /^12\n31\n$/,
  },
  {
    command: 'hero track rebuild',
    line: kf(`hero track rebuild --lsmdc ${MINI_HERO}/lsmdc --data ${HERO_DATA} --out ${OUT}/track --jobs 2`),
    needs: NEEDS_HERO,
    writes: `${OUT}/track/<movie_id>/<frame_idx>.jpg and <movie_id>/.done.json per film`,
    prints: /^rebuilt 6 films \(\d+ frames\)/m,
  },
  {
    command: 'hero track verify',
    line: kf(`hero track verify --track ${OUT}/track --data ${HERO_DATA}`),
    needs: 'a rebuilt track: the hero track rebuild example',
    prints: /^ok +9001_Astronaut_Diaries +24\/24 match/m,
  },
  {
    command: 'hero track make-index',
    line: kf(`hero track make-index --track ${OUT}/track --data ${HERO_DATA}`),
    needs: 'a rebuilt track: the hero track rebuild example',
    writes: `${HERO_DATA}/frame_track/track_index.jsonl.zst and verify_dhash.jsonl.zst`,
    prints: /^indexed \d+ frames of 6 films; 144 verify hashes$/m,
  },
  {
    command: 'hero select',
    line: kf(
      `hero select --method hecate-like --data ${HERO_DATA} --track ${MINI_HERO}/track --out ${OUT}/hecate.jsonl --k 3`,
    ),
    needs: NEEDS_HERO,
    writes: `${OUT}/hecate.jsonl (one line per film: movie_id and frames [{rank, frame_idx}])`,
    prints: /^hecate-like: 18 frames for 6 films → /,
  },
  {
    command: 'hero fit-reader',
    line: kf(`hero fit-reader --data ${HERO_DATA} --out ${OUT}/reader.json`),
    needs: NEEDS_HERO,
    writes: `${OUT}/reader.json (use it as --judge local:${OUT}/reader.json)`,
    prints:
      /^fitted on \d+ confident pairs of 6 films → [\s\S]*5-fold cross-validated agreement \(folds by film\): [\d.]+ %/,
  },
  {
    command: 'hero build',
    line: kf(
      `hero build --data ${HERO_DATA} --lsmdc ${MINI_HERO}/lsmdc --stills ${MINI_HERO}/stills --judge ${READER} --chains-per-film 2`,
    ),
    needs: NEEDS_READER,
    writes: `${HERO_DATA}/data/chains.jsonl, images/, images/image_sha256.jsonl, stats/build_report.json (with --learn-rubric also data/rubrics.jsonl and stats/rubric_proposals.jsonl)`,
    prints: /^built 12 chains for 6 films with local:reader-\w+: 180 pairs, /,
  },
  {
    command: 'hero check-reader',
    line: kf(`hero check-reader --data ${HERO_DATA} --judge ${READER}`),
    needs: NEEDS_READER,
    prints:
      /^local:reader-\w+, listwise \(release prompt [0-9a-f]{12}\): places \d+\/\d+ chain images exactly where their chain has them = [\d.]+ % \(95 % Wilson /,
  },
  {
    command: 'hero prompt',
    line: kf(`hero prompt 9001_Astronaut_Diaries --data ${HERO_DATA}`),
    needs: NEEDS_HERO,
    prints: /^You will see 7 images\. [\s\S]*"Astronaut Diaries" \(1998\)[\s\S]*\[image 7: candidate\]\n$/,
  },
  {
    command: 'hero analyze corpus',
    line: kf(`hero analyze corpus --data ${HERO_DATA}`),
    needs: NEEDS_HERO,
    prints: /^6 films, \d+ chains, /,
  },
  {
    command: 'hero analyze position',
    line: kf(`hero analyze position --data ${HERO_DATA}`),
    needs: NEEDS_HERO,
    prints: /^\d+ sampled chain images; Spearman ρ/,
  },
  {
    command: 'hero analyze human',
    line: kf(
      `hero analyze human --pairs ${FIXTURES}/hero/human-pairs.jsonl --data ${HERO_DATA} --judge ${READER}`,
    ),
    needs: 'the chains of the hero build example (the made-up human pairs name their images)',
    prints: /^without the rubric: \d+\/\d+ = /m,
  },
  {
    command: 'hero analyze rubric-swap',
    line: kf(`hero analyze rubric-swap --data ${HERO_DATA} --judge ${READER}`),
    needs: NEEDS_READER,
    prints: /^own rubric [\d.]+ %, swapped [\d.]+ %, none [\d.]+ %$/m,
  },
  {
    command: 'hero evaluate',
    line: kf(
      `hero evaluate --selections ${OUT}/hecate.jsonl --data ${HERO_DATA} --track ${MINI_HERO}/track --judge ${READER} --include-stills --out ${OUT}/hero-eval`,
    ),
    needs: `selections and a reader: the hero select and hero fit-reader examples`,
    writes: `${OUT}/hero-eval/ (the files below)`,
    prints: /^stills\s+local:reader-\w+\s+0\.\d{3}[\s\S]*^hecate\s+local:reader-/m,
  },
  {
    command: 'compass init',
    line: kf(`compass init --videos ${MINI_COMPASS}/videos/faithful --out ${OUT}/my-compass/cases.jsonl`),
    needs: NEEDS_COMPASS,
    writes: `${OUT}/my-compass/cases.jsonl and ${OUT}/my-compass/keyframes/<case_id>/kf01.png …`,
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
      `compass response --cases ${CASES} --case-id ot-06 --video ${MINI_COMPASS}/videos/swapped/ot-06__minimal.mp4`,
    ),
    needs: NEEDS_COMPASS,
    prints: /^ordering\s+0\.833$/m,
  },
  {
    command: 'compass score',
    line: kf(
      `compass score --cases ${CASES} --videos ${MINI_COMPASS}/videos --model faithful flash --out ${OUT}/compass-response`,
    ),
    needs: NEEDS_COMPASS,
    writes: `${OUT}/compass-response/ (the files below); the scan cache ${OUT}/.cache/kfbench/scan-cache.sqlite`,
    prints: /^faithful\s+16\s+16\/16\s+1\.000[\s\S]*^flash\s+16\s+16\/16\s/m,
  },
  {
    command: 'compass sensitivity',
    line: kf(
      `compass sensitivity --cases ${CASES} --videos ${MINI_COMPASS}/videos --model faithful flash --out ${OUT}/compass-response`,
    ),
    needs: `${NEEDS_COMPASS} (after the compass score example it decodes nothing)`,
    writes: `${OUT}/compass-response/sensitivity.json`,
    prints: /^32 outputs, 240 keyframes, 2 models, 125 settings[\s\S]*lowest Spearman ρ of the model ranking/,
  },
  {
    command: 'compass grid',
    line: kf(`compass grid --cases ${CASES} --case-id ms-09 --out ${OUT}/compass-grid.jpg`),
    needs: NEEDS_COMPASS,
    writes: `${OUT}/compass-grid.jpg`,
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
      `compass evaluate --cases ${CASES} --videos ${MINI_COMPASS}/videos --model faithful blurred --judge openai:my-vlm@http://127.0.0.1:8000/v1 --dry-run`,
    ),
    needs: `${NEEDS_COMPASS}; without --dry-run, a judge server (see the dev vlm-emulator example)`,
    writes:
      'nothing with --dry-run; else --out (compass-eval/): checklists.jsonl, response.jsonl, summary.json, evaluation.jsonl, leaderboard.json, run.json, judge-cache.sqlite; the scan cache .cache/kfbench/scan-cache.sqlite beside --out',
    prints: /^total: \d+ calls \(\d+ checklist, \d+ segment, \d+ grouped\), [\s\S]*nothing was asked$/m,
  },
  {
    command: 'compass report',
    line: kf(`compass report --eval ${FIXTURES}/compass/eval`),
    prints: /^faithful\s+0\.986/m,
  },
  {
    command: 'compass export-scores',
    line: kf(`compass export-scores --results ${OUT}/compass-response --out ${OUT}/scores.jsonl`),
    needs: 'a results folder: the compass score example',
    writes: `${OUT}/scores.jsonl ({case_id, model, dimension, score} per line)`,
    prints: /^\d+ scores \(8 cases × 2 models × 8 dimensions\) → /m,
  },
  {
    command: 'compass align',
    line: kf(
      `compass align --judgments ${FIXTURES}/compass/align/judgments.jsonl --scores ${FIXTURES}/compass/align/scores.jsonl`,
    ),
    prints: /^== keyframe_fidelity: agreement /m,
  },
  {
    command: 'merge hero',
    line: kf(`merge hero ${OUT}/shard-1 ${OUT}/shard-2 --out ${OUT}/hero-merged`),
    needs: 'the hero select and hero fit-reader examples, then two shards of an evaluation',
    before: [1, 2].map((k) =>
      kf(
        `hero evaluate --selections ${OUT}/hecate.jsonl --data ${HERO_DATA} --track ${MINI_HERO}/track --judge ${READER} --shard ${k}/2 --out ${OUT}/shard-${k} --cache ${OUT}/shard-${k}/cache.sqlite`,
      ),
    ),
    writes: `${OUT}/hero-merged/ (the files hero evaluate writes, for every film)`,
    prints: /^merged 2 shard\(s\): 6 films, 36 insertions$/m,
  },
  {
    command: 'cache merge',
    line: kf(
      `cache merge ${OUT}/shard-1/cache.sqlite ${OUT}/shard-2/cache.sqlite --out ${OUT}/merged-cache.sqlite`,
    ),
    needs: "two shards' caches: the runs under the merge hero example",
    writes: `${OUT}/merged-cache.sqlite`,
    prints: /^36 answers from 2 caches \(0 held by more than one\), 0 conflicts; written to /,
  },
  {
    command: 'merge compass',
    line: kf(`merge compass ${OUT}/cshard-1 ${OUT}/cshard-2 --out ${OUT}/compass-merged`),
    needs: `${NEEDS_COMPASS}, then two shards of a scoring (with the compass score example's scan cache they decode nothing)`,
    before: [1, 2].map((k) =>
      kf(
        `compass score --cases ${CASES} --videos ${MINI_COMPASS}/videos --model faithful flash --shard ${k}/2 --out ${OUT}/cshard-${k} --scan-cache ${OUT}/.cache/kfbench/scan-cache.sqlite`,
      ),
    ),
    writes: `${OUT}/compass-merged/ (the files compass score writes, for every case)`,
    prints: /^merged 2 compass score shard\(s\): 8 cases, 32 videos; results in /,
  },
  {
    command: 'serve',
    line: kf(
      `serve --data ${HERO_DATA} --track ${MINI_HERO}/track --results ${OUT}/hero-eval --export ${OUT}/site`,
    ),
    needs:
      'the hero evaluate example (add --cases, --videos and --compass-results for Compass; without --export it serves at http://127.0.0.1:8377/ until Ctrl-C)',
    writes: `${OUT}/site/index.html with a page per film and the images they show`,
    prints: /^wrote \d+ pages, \d+ files and \d+ frames\/proxies to \S+site\nopen \S+site\/index\.html$/m,
  },
  {
    command: 'demo',
    line: kf(`demo --out ${OUT}/demo --media-only`),
    writes: `${OUT}/demo/ (without --media-only: both mini sets, chains, selections, both leaderboards)`,
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
    ...(FOLDER_OUTPUTS[e.command] ? folderFilesLines(FOLDER_OUTPUTS[e.command]!) : []),
  ].join('\n');
}
