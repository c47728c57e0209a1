/** `kfbench hero select`, `fit-reader` and `check-reader`: the methods under test and the local reader. */
import type { Command } from 'commander';
import { EMBEDDER_FORMS } from '../embed/registry.js';
import { METHODS, methodByName } from '../hero/select/registry.js';
import { checkReaderRun, fitReaderRun, READER_CHECK_PROTOCOLS } from '../runs/hero-reader.js';
import { refuseOverlap } from '../store/path-overlap.js';
import { ONNX_FLAG_SPECS, onnxFlags } from './embed.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS, type WithLayout } from './flags.js';
import type { CliImpls } from './impls.js';
import { judgeFlagSpecs, judgeSettings } from './judge.js';
import { addLayoutFlag } from './layout-flag.js';
import { oneOf, parseNumberFlag, printJson, printLines } from './output.js';
import { renderProgress } from './progress.js';

const SELECT_FLAG_SPECS = flagSpecs({
  ...ONNX_FLAG_SPECS,
  ...judgeFlagSpecs(),
  method: { flags: '--method <name>', description: 'selection method', required: true },
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  track: { flags: '--track <dir>', description: 'the rebuilt 1 fps track', required: true },
  out: { flags: '--out <file>', description: 'selections JSONL to write', required: true },
  lsmdc: { flags: '--lsmdc <dir>', description: 'full-rate clips (shot-centre)' },
  embedder: { flags: '--embedder <spec>', description: `${EMBEDDER_FORMS} (cluster)`, default: 'builtin' },
  k: { flags: '--k <n>', description: 'frames per film (1–5)', default: '5' },
  seed: { flags: '--seed <s>', description: 'seed', default: '0' },
  movies: { flags: '--movies <ids...>', description: 'only these films' },
  ...JSON_FLAG_SPECS,
});

const FIT_READER_FLAG_SPECS = flagSpecs({
  ...ONNX_FLAG_SPECS,
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  out: { flags: '--out <file>', description: 'reader.json to write', required: true },
  embedder: { flags: '--embedder <spec>', description: EMBEDDER_FORMS, default: 'builtin' },
  lambda: { flags: '--lambda <x>', description: 'L2 penalty', default: '1' },
  ...JSON_FLAG_SPECS,
});

const CHECK_READER_FLAG_SPECS = flagSpecs({
  ...judgeFlagSpecs(),
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  protocol: {
    flags: '--protocol <p>',
    description: 'listwise (each chain image re-inserted into its chain) | pairwise (the confident pairs)',
    default: 'listwise',
  },
  sample: { flags: '--sample <n>', description: 'a seeded sample of this many pairs (default: all)' },
  seed: { flags: '--seed <s>', description: 'seed', default: '0' },
  promptTemplate: {
    flags: '--prompt-template <file>',
    description:
      "listwise: the reader's prompt as a template (default: derived from the release's eval/judge_prompt_example.md, else kfbench's wording; see kfbench hero prompt)",
  },
  ...JSON_FLAG_SPECS,
});

/** `kfbench hero select`. */
function registerSelect(hero: Command, impls: CliImpls): void {
  const cmd = hero
    .command('select')
    .description(`run a key-frame selection method on every film: ${METHODS.map((m) => m.name).join(', ')}`);
  addLayoutFlag(addFlags(cmd, SELECT_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof SELECT_FLAG_SPECS>>) => {
      const method = methodByName(o.method);
      // the dataset, track and footage folders are read file by file: write the selections elsewhere
      refuseOverlap({
        reads: [],
        writes: [{ flag: '--out', path: o.out }],
        readsWhole: [
          { flag: '--data', path: o.data },
          { flag: '--track', path: o.track },
          { flag: '--lsmdc', path: o.lsmdc },
        ],
      });
      const k = parseNumberFlag('--k', o.k, (n) => Number.isInteger(n) && n >= 1 && n <= 5);
      // like every other command: --judge, else "judge" in --config, else KFBENCH_JUDGE
      const judge = method.needs?.judge ? judgeSettings(o) : undefined;
      const shown = renderProgress();
      const r = await impls
        .select({
          method,
          data: o.data,
          layout: o.layout,
          track: o.track,
          out: o.out,
          lsmdc: o.lsmdc,
          judge,
          embedder: o.embedder,
          embedderOptions: onnxFlags(o),
          k,
          seed: o.seed,
          movies: o.movies,
          onProgress: shown.onProgress,
        })
        .finally(() => shown.close());
      if (o.json) printJson({ method: method.name, out: o.out, ...r });
      else printLines([`${method.name}: ${r.frames} frames for ${r.films} films → ${o.out}`]);
    },
  );
}

/** `kfbench hero fit-reader`. */
function registerFitReader(hero: Command): void {
  const cmd = hero
    .command('fit-reader')
    .description(
      'fit the local reader (Bradley–Terry over embedder features) on every film’s confident pairs',
    );
  addLayoutFlag(addFlags(cmd, FIT_READER_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof FIT_READER_FLAG_SPECS>>) => {
      refuseOverlap({
        reads: [],
        writes: [{ flag: '--out', path: o.out }],
        readsWhole: [{ flag: '--data', path: o.data }],
      });
      const r = await fitReaderRun({
        data: o.data,
        layout: o.layout,
        out: o.out,
        embedder: o.embedder,
        embedderOptions: onnxFlags(o),
        lambda: parseNumberFlag('--lambda', o.lambda, (n) => n > 0),
      });
      if (o.json) printJson(r);
      else
        printLines([
          `fitted on ${r.pairs} confident pairs of ${r.films} films → ${o.out}`,
          `5-fold cross-validated agreement (folds by film): ${(100 * r.cv_agreement).toFixed(1)} %`,
        ]);
    },
  );
}

/** `kfbench hero check-reader`. */
function registerCheckReader(hero: Command): void {
  const cmd = hero
    .command('check-reader')
    .description("a reader's agreement with the chains, before trusting it");
  addLayoutFlag(addFlags(cmd, CHECK_READER_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof CHECK_READER_FLAG_SPECS>>) => {
      const protocol = oneOf('--protocol', o.protocol, READER_CHECK_PROTOCOLS);
      const sample =
        o.sample === undefined
          ? undefined
          : parseNumberFlag('--sample', o.sample, (n) => Number.isInteger(n) && n > 0);
      const r = await checkReaderRun({
        judge: judgeSettings(o),
        protocol,
        data: o.data,
        layout: o.layout,
        ...(sample ? { sample } : {}),
        seed: o.seed,
        promptTemplate: o.promptTemplate,
      });
      if (o.json) printJson(r);
      else if (r.protocol === 'listwise')
        printLines([
          `${r.reader}, listwise (${r.prompt.source} prompt ${r.prompt.version}): places ${r.agree}/${r.insertions} chain images exactly where their chain has them = ${(100 * r.agreement).toFixed(1)} % (95 % Wilson ${(100 * r.ci[0]).toFixed(1)}–${(100 * r.ci[1]).toFixed(1)} %), ${(100 * r.within_one).toFixed(1)} % within one position, mean |error| ${r.mean_abs_error.toFixed(2)}, ${r.unresolved} unresolved`,
          ...r.prompt.not_placed.map((w) => `warning: reader prompt — not placed: ${w}`),
        ]);
      else
        printLines([
          `${r.reader}: agrees on ${r.agree}/${r.pairs} confident pairs = ${(100 * r.agreement).toFixed(1)} % (95 % Wilson ${(100 * r.ci[0]).toFixed(1)}–${(100 * r.ci[1]).toFixed(1)} %), ${r.unresolved} unresolved`,
        ]);
    },
  );
}

export function registerHeroReaders(hero: Command, impls: CliImpls): void {
  registerSelect(hero, impls);
  registerFitReader(hero);
  registerCheckReader(hero);
}
