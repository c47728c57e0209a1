/** The examples of the mini sets and the building blocks (media, stats, embed, judge, cache, dev), in the order they run. */
import { type Example, FIXTURES, kf, MINI_COMPASS, MINI_HERO, EXAMPLES_DIR as OUT } from './example-paths.js';

export const BLOCK_EXAMPLES: readonly Example[] = [
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
];
