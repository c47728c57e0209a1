/** The examples of `kfbench hero …`, in the order they run. */
import {
  BUILT_DATA,
  BUILT_HERO,
  type Example,
  FIXTURES,
  HERO_DATA,
  kf,
  MINI_HERO,
  NEEDS_HERO,
  NEEDS_READER,
  EXAMPLES_DIR as OUT,
  READER,
} from './example-paths.js';

export const HERO_EXAMPLES: readonly Example[] = [
  {
    command: 'hero init',
    line: kf(`hero init --footage ${MINI_HERO}/lsmdc --out ${OUT}/my-films`),
    needs: NEEDS_HERO,
    writes: `${OUT}/my-films/data/movies.jsonl and clips.jsonl`,
    prints: /^wrote 6 film\(s\), \d+ clip\(s\) to [\s\S]*hero track make-index/,
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
      `hero build --data ${BUILT_DATA} --lsmdc ${MINI_HERO}/lsmdc --stills ${MINI_HERO}/stills --judge ${READER} --chains-per-film 2`,
    ),
    needs: `${NEEDS_READER}; a copy of the mini set to build on (the build rewrites its chains; the demo's set stays as it was):`,
    before: [kf(`hero mini --out ${BUILT_HERO}`)],
    writes: `${BUILT_DATA}/data/chains.jsonl, images/, images/image_sha256.jsonl, stats/build_report.json (with --learn-rubric also data/rubrics.jsonl and stats/rubric_proposals.jsonl; without it, data/rubrics.jsonl only where the dataset has none: a row without rules per film)`,
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
    prints: /^\d+ sampled chain images; mean normalised time \d\.\d{3} \(film time over the runtime/,
  },
  {
    command: 'hero analyze human',
    line: kf(
      `hero analyze human --pairs ${FIXTURES}/hero/human-pairs.jsonl --data ${BUILT_DATA} --judge ${READER}`,
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
];
