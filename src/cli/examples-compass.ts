/** The examples of `kfbench compass …`, then of the merges, the viewer and the demo, in the order they run. */
import {
  CASES,
  type Example,
  FIXTURES,
  HERO_DATA,
  kf,
  MINI_COMPASS,
  MINI_HERO,
  NEEDS_COMPASS,
  EXAMPLES_DIR as OUT,
  READER,
} from './example-paths.js';

export const COMPASS_EXAMPLES: readonly Example[] = [
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
    command: 'compass check-pipeline',
    line: kf(`compass check-pipeline --cases ${CASES} --case-id ot-06`),
    needs: NEEDS_COMPASS,
    writes: 'nothing (the check videos go to a temporary folder; --keep DIR keeps them)',
    prints: /^\d+ identities hold$/m,
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
