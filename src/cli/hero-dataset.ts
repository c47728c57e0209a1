/** `kfbench hero analyze …`, `validate`, `inspect`, `check-selections` and `frames`: reading a HeroFrame root. */
import type { Command } from 'commander';
import { BadInputError } from '../errors.js';
import { corpusStats } from '../hero/analyze/corpus.js';
import { positionAnalysis } from '../hero/analyze/position.js';
import { inspectDataset, inspectLines } from '../hero/dataset/inspect.js';
import { validateDataset } from '../hero/dataset/validate.js';
import { checkSelectionsFile } from '../hero/evaluate/inputs.js';
import { humanAgreementRun, rubricSwapRun } from '../runs/hero-analyze.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS, type WithLayout } from './flags.js';
import { corpusLines, positionLines } from './hero-analyze-lines.js';
import { registerHeroFrames } from './hero-frames.js';
import { judgeFlagSpecs, judgeSettings } from './judge.js';
import { addLayoutFlag } from './layout-flag.js';
import { oneOf, printJson, printLines, printResult } from './output.js';
import { renderProgress } from './progress.js';

/** `--data DIR` and `--json` of the commands that only read a root. */
const ROOT_FLAG_SPECS = flagSpecs({
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  ...JSON_FLAG_SPECS,
});

type RootFlags = WithLayout<FlagValues<typeof ROOT_FLAG_SPECS>>;

const HUMAN_FLAG_SPECS = flagSpecs({
  pairs: { flags: '--pairs <file>', description: 'JSONL {movie_id, a, b, human_winner}', required: true },
  ...ROOT_FLAG_SPECS,
  ...judgeFlagSpecs(),
});

const RUBRIC_SWAP_FLAG_SPECS = flagSpecs({
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  seed: {
    flags: '--seed <s>',
    description: 'seed of the derangement and the permutation test',
    default: '0',
  },
  ...JSON_FLAG_SPECS,
  ...judgeFlagSpecs(),
});

const CHECK_SELECTIONS_FLAG_SPECS = flagSpecs({
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  track: {
    flags: '--track <dir>',
    description: 'the rebuilt 1 fps track: also check that every selected frame is in it',
  },
  missing: {
    flags: '--missing <how>',
    description: 'a film without a submission: error | zero (as hero evaluate --missing)',
    default: 'error',
  },
  ...JSON_FLAG_SPECS,
});

const CORPUS_FLAG_SPECS = flagSpecs({
  ...ROOT_FLAG_SPECS,
  imageProperties: {
    flags: '--image-properties',
    description:
      'correlate each chain image’s photographic properties with its rank (decodes every chain image)',
    negatable: 'skip the image-property correlations (no image decoded)',
  },
});

/** `kfbench hero analyze corpus`. */
function registerCorpus(analyze: Command): void {
  const cmd = analyze
    .command('corpus')
    .description(
      'corpus statistics: films, chains, images, criteria, confident share, still ranks, years, runtimes, genres, image-property correlations',
    );
  addLayoutFlag(addFlags(cmd, CORPUS_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof CORPUS_FLAG_SPECS>>) => {
      const shown = renderProgress();
      const r = await corpusStats(o.data, o.layout, {
        imageProperties: o.imageProperties !== false,
        onProgress: shown.onProgress,
      }).finally(() => shown.close());
      printResult(o.json, r, corpusLines);
    },
  );
}

const POSITION_FLAG_SPECS = flagSpecs({
  ...ROOT_FLAG_SPECS,
  normalise: {
    flags: '--normalise <how>',
    description:
      "runtime: film time over the film's runtime (the card's 0.545); timeline: place on the clips laid end to end",
    default: 'runtime',
  },
});

/** `kfbench hero analyze position`. */
function registerPosition(analyze: Command): void {
  const cmd = analyze
    .command('position')
    .description("sampled frames' normalised film time against their chain rank");
  addLayoutFlag(addFlags(cmd, POSITION_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof POSITION_FLAG_SPECS>>) => {
      const how = oneOf('--normalise', o.normalise, ['runtime', 'timeline'] as const);
      printResult(o.json, await positionAnalysis(o.data, o.layout, how), positionLines);
    },
  );
}

/** `kfbench hero analyze human`. */
function registerHuman(analyze: Command): void {
  const cmd = analyze
    .command('human')
    .description("the judge's agreement with human pairwise choices, without and with the film's rubric");
  addLayoutFlag(addFlags(cmd, HUMAN_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof HUMAN_FLAG_SPECS>>) => {
      const r = await humanAgreementRun({
        root: o.data,
        layout: o.layout,
        judge: judgeSettings(o),
        pairs: o.pairs,
      });
      if (o.json) return printJson(r);
      const line = (name: string, a: typeof r.with_rubric) =>
        `${name}: ${a.correct}/${a.n} = ${(100 * a.rate).toFixed(1)} % (95 % Wilson ${(100 * a.ci[0]).toFixed(1)}–${(100 * a.ci[1]).toFixed(1)} %)`;
      printLines([
        `reader ${r.reader}; unresolved comparisons count as errors`,
        line('without the rubric', r.without_rubric),
        line('with the rubric   ', r.with_rubric),
        `McNemar (${r.mcnemar.method}): b = ${r.mcnemar.b}, c = ${r.mcnemar.c}, p = ${r.mcnemar.p.toFixed(4)}`,
      ]);
    },
  );
}

/** `kfbench hero analyze rubric-swap`. */
function registerRubricSwap(analyze: Command): void {
  const cmd = analyze
    .command('rubric-swap')
    .description("own rubric vs another film's vs none: agreement with the chains' confident pairs");
  addLayoutFlag(addFlags(cmd, RUBRIC_SWAP_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof RUBRIC_SWAP_FLAG_SPECS>>) => {
      const r = await rubricSwapRun({
        root: o.data,
        layout: o.layout,
        judge: judgeSettings(o),
        seed: o.seed,
      });
      if (o.json) return printJson(r);
      const pc = (a: typeof r.own) => `${(100 * a.rate).toFixed(1)} %`;
      printLines([
        `reader ${r.reader}; ${r.pairs} confident chain pairs; each film served another's rubric by a seeded derangement`,
        `own rubric ${pc(r.own)}, swapped ${pc(r.swapped)}, none ${pc(r.none)}`,
        `own vs swapped: p = ${r.p_own_vs_swapped.p.toFixed(4)} (${r.p_own_vs_swapped.exact ? 'exact' : 'sampled'}); swapped vs none: p = ${r.p_swapped_vs_none.p.toFixed(4)} (${r.p_swapped_vs_none.exact ? 'exact' : 'sampled'})`,
      ]);
    },
  );
}

/** `kfbench hero validate`. */
function registerValidate(hero: Command): void {
  const cmd = hero
    .command('validate')
    .description('check a dataset root in the published layout; every problem as file:line');
  addLayoutFlag(addFlags(cmd, ROOT_FLAG_SPECS)).action(async (o: RootFlags) => {
    const r = await validateDataset(o.data, o.layout);
    const s = r.summary;
    if (o.json) printJson(r);
    else
      printLines([
        `${s.films} films, ${s.chains} chains, ${s.images} images, ${s.criteria} criteria, ${s.pairs} pairs (${(100 * s.confident_share).toFixed(1)} % confident), ${s.track_frames} track frames, ${s.verify_rows} verify hashes`,
        ...(s.absent.length ? [`absent (optional): ${s.absent.join(', ')}`] : []),
        ...(s.rule_disagreements.count
          ? [
              `${s.rule_disagreements.count} track frame(s) where the published index and kfbench's midpoint rule disagree (hero track rebuild extracts the index's coordinate):`,
              ...s.rule_disagreements.frames.slice(0, 20).map((f) => `  ${f}`),
              ...(s.rule_disagreements.count > 20
                ? [`  … and ${s.rule_disagreements.count - 20} more (--json lists all)`]
                : []),
            ]
          : []),
      ]);
    for (const p of r.problems) process.stderr.write(`${p}\n`);
    if (r.problems.length)
      throw new BadInputError(`${r.problems.length} problem${r.problems.length > 1 ? 's' : ''} in ${o.data}`);
  });
}

/** `kfbench hero inspect`. */
function registerInspect(hero: Command): void {
  const cmd = hero
    .command('inspect')
    .description(
      "what a downloaded root holds: each file's fields, the kfbench field each maps to, and what is missing",
    );
  addLayoutFlag(addFlags(cmd, ROOT_FLAG_SPECS)).action(async (o: RootFlags) => {
    printResult(o.json, await inspectDataset(o.data, o.layout), inspectLines);
  });
}

/** `kfbench hero check-selections`. */
function registerCheckSelections(hero: Command): void {
  const cmd = hero
    .command('check-selections')
    .description(
      "check a method's selections file as hero evaluate does: its coverage (films selected of the films with chains), every problem, and the same refusal and exit code",
    )
    .argument('<file>');
  addLayoutFlag(addFlags(cmd, CHECK_SELECTIONS_FLAG_SPECS)).action(
    async (file: string, o: WithLayout<FlagValues<typeof CHECK_SELECTIONS_FLAG_SPECS>>) => {
      const missing = oneOf('--missing', o.missing, ['error', 'zero'] as const);
      const { report: r, fault } = await checkSelectionsFile(file, o.data, o.layout, {
        track: o.track,
        missing,
      });
      printResult(o.json, r, () => [
        `${r.covered} of ${r.films_in_set} films selected (coverage ${r.films_in_set ? ((100 * r.covered) / r.films_in_set).toFixed(1) : '0.0'} %), ${r.frames} frames${r.films > r.covered ? `; ${r.films - r.covered} selected film(s) have no chains` : ''}`,
        ...(r.missing_films.length
          ? [
              `not selected: ${r.missing_films.slice(0, 10).join(', ')}${r.missing_films.length > 10 ? ', …' : ''}`,
            ]
          : []),
        ...r.problems,
      ]);
      // the refusal hero evaluate would print, and its exit code
      if (fault) throw fault;
    },
  );
}

export function registerHeroDataset(hero: Command): void {
  const analyze = hero.command('analyze').description('analyses of a HeroFrame dataset and its judge');
  registerCorpus(analyze);
  registerPosition(analyze);
  registerHuman(analyze);
  registerRubricSwap(analyze);
  registerValidate(hero);
  registerInspect(hero);
  registerCheckSelections(hero);
  registerHeroFrames(hero);
}
