/**
 * `kfbench hero evaluate`: methods scored by insertion. The flags are parsed into the run's options
 * object (`heroEvaluateInput` → `HeroFolderInput`), the run is `evaluateHeroFolder`
 * (src/runs/hero-evaluate.ts), and what it returns is printed here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { PartialError, UsageError } from '../errors.js';
import type { EvaluationPlan } from '../hero/evaluate/evaluate.js';
import { methodName } from '../hero/evaluate/inputs.js';
import { STILLS_RULES } from '../hero/evaluate/options.js';
import { DISAGREEMENT_RULES, INSERTION_PROTOCOLS } from '../judge/insertion.js';
import { checkUnresolved, unresolvedLine } from '../judge/unresolved.js';
import { heroTable } from '../report/hero.js';
import type { HeroFolderInput } from '../runs/hero-evaluate.js';
import { addFlags, type FlagValues, flagSpecs, type WithLayout } from './flags.js';
import type { CliImpls } from './impls.js';
import { withInterruptShown } from './interrupt.js';
import { judgeFlagSpecs, judgeSettings, maxUnresolvedSpecs, parseMaxUnresolved } from './judge.js';
import { addLayoutFlag } from './layout-flag.js';
import { oneOf, parseNumberFlag, printJson, printLines } from './output.js';
import { parseShard } from './shard-flag.js';

/** `hero evaluate`'s flags and their help, declared once: the parsed options' type is inferred from them. */
function evaluateFlagSpecs() {
  return flagSpecs({
    ...judgeFlagSpecs({ cacheDefault: '<out>/judge-cache.sqlite' }),
    ...maxUnresolvedSpecs('judge answers (listwise) or comparisons (pairwise, binary)'),
    selections: {
      flags: '--selections <files...>',
      description: "one or more methods' selections files (the method is the file name)",
      required: true,
    },
    data: { flags: '--data <dir>', description: 'dataset root', required: true },
    track: { flags: '--track <dir>', description: 'the rebuilt 1 fps track', required: true },
    protocol: {
      flags: '--protocol <p>',
      description: `${INSERTION_PROTOCOLS.join(' | ')} (listwise: the published positional question)`,
      default: 'listwise',
    },
    bothOrders: {
      flags: '--both-orders',
      description: 'listwise: ask again with the chain shown worst first and record disagreements',
    },
    disagreement: {
      flags: '--disagreement <rule>',
      description: `with --both-orders, how a disagreement scores: ${DISAGREEMENT_RULES.join(' | ')}`,
      default: 'error',
    },
    includeStills: { flags: '--include-stills', description: 'add the human reference row "stills"' },
    stills: {
      flags: '--stills <which>',
      description: `${STILLS_RULES.join(' | ')}: the stills row scores every publicity still of the film (all: those the still floor deleted too, read from --stills-dir) or only those in some chain`,
      default: 'all',
    },
    stillsDir: {
      flags: '--stills-dir <dir>',
      description: 'the publicity stills hero build read (<dir>/<movie_id>/<image_id>.jpg), for --stills all',
    },
    rescoreOfficial: {
      flags: '--rescore-official',
      description: 'score the official selections of eval/baselines.jsonl with this reader',
    },
    missing: {
      flags: '--missing <how>',
      description: 'a film without a submission: error | zero',
      default: 'error',
    },
    dryRun: {
      flags: '--dry-run',
      description: 'print the calls needed and how many the judge cache holds; spend none',
    },
    maxCalls: {
      flags: '--max-calls <n>',
      description:
        'make at most this many judge calls, at any --concurrency (exit 5; run again to resume from the judge cache)',
    },
    promptTemplate: {
      flags: '--prompt-template <file>',
      description:
        "the reader's listwise prompt as a template (default: derived from the release's eval/judge_prompt_example.md, else kfbench's wording; see kfbench hero prompt)",
    },
    out: { flags: '--out <dir>', description: 'output folder', default: 'hero-eval' },
    movies: {
      flags: '--movies <ids...>',
      description: 'only these films (a merge then needs the others from other folders)',
    },
    shard: {
      flags: '--shard <k/n>',
      description:
        'a deterministic k-th of n shards of the films (own --out, so its own judge cache; see kfbench merge)',
    },
    seed: { flags: '--seed <s>', description: 'bootstrap seed', default: '0' },
    bootstrap: { flags: '--bootstrap <n>', description: 'bootstrap resamples', default: '1000' },
    json: { flags: '--json', description: 'print the summary as JSON' },
  });
}

/**
 * `hero evaluate`'s flags as commander gives them, and the layout map program.ts resolves for
 * every hero command that reads a root (`--layout FILE`, else `KFBENCH_HERO_LAYOUT`).
 */
export type EvaluateFlags = WithLayout<FlagValues<ReturnType<typeof evaluateFlagSpecs>>>;

/** Each selections file as a method named by its file (a second file of one name gets `#2` …). */
function methodsOf(files: readonly string[]): { method: string; file: string }[] {
  const names = new Map<string, number>();
  return files.map((file) => {
    const base = methodName(file);
    const n = (names.get(base) ?? 0) + 1;
    names.set(base, n);
    return { method: n > 1 ? `${base}#${n}` : base, file };
  });
}

/** The flags parsed into the run's options object (`evaluateHeroFolder`, src/runs/hero-evaluate.ts). */
export function heroEvaluateInput(o: EvaluateFlags): Omit<HeroFolderInput, 'signal' | 'onProgress'> {
  const protocol = oneOf('--protocol', o.protocol, INSERTION_PROTOCOLS);
  if (o.bothOrders && protocol !== 'listwise')
    throw new UsageError(
      '--both-orders applies to --protocol listwise (pairwise and binary already ask both placements)',
    );
  const disagreement = oneOf('--disagreement', o.disagreement, DISAGREEMENT_RULES);
  const missing = oneOf('--missing', o.missing, ['error', 'zero'] as const);
  const stills = oneOf('--stills', o.stills, STILLS_RULES);
  if (o.stillsDir !== undefined && !existsSync(o.stillsDir))
    throw new UsageError(`--stills-dir ${o.stillsDir} does not exist`);
  const methods = methodsOf(o.selections);
  // flags first: a bad --shard is refused before the judge's cache is made
  const shard = o.shard ? parseShard(o.shard) : undefined;
  const bootstrapB = parseNumberFlag('--bootstrap', o.bootstrap, (n) => Number.isInteger(n) && n >= 100);
  const resolved = judgeSettings(o);
  const maxCalls =
    o.maxCalls === undefined
      ? undefined
      : parseNumberFlag('--max-calls', o.maxCalls, (n) => Number.isInteger(n) && n >= 0);
  return {
    // the judge cache lives with the results unless given: a second run resumes, a dry run counts
    // it (and never creates it)
    judge: { ...resolved, cache: resolved.cache ?? join(o.out, 'judge-cache.sqlite') },
    out: o.out,
    data: o.data,
    layout: o.layout,
    track: o.track,
    methods,
    protocol,
    bothOrders: !!o.bothOrders,
    disagreement,
    includeStills: !!o.includeStills,
    stills,
    stillsDir: o.stillsDir,
    rescoreOfficial: !!o.rescoreOfficial,
    promptTemplate: o.promptTemplate,
    missing,
    maxCalls,
    seed: o.seed,
    bootstrapB,
    movies: o.movies,
    shard,
  };
}

function printDryRun(d: EvaluationPlan, json: boolean): void {
  const out = {
    dry_run: true,
    insertions: d.insertions,
    questions: d.questions,
    cached: d.cached,
    to_ask: d.questions - d.cached,
    upper_bound: d.upper_bound,
  };
  if (json) printJson(out);
  else
    printLines([
      `${d.insertions} insertions need ${d.upper_bound ? 'at most ' : ''}${d.questions} questions (re-asks aside); the cache holds ${d.cached}; ${d.questions - d.cached} to ask`,
    ]);
}

async function runEvaluate(o: EvaluateFlags, impls: CliImpls): Promise<void> {
  const maxUnresolved = parseMaxUnresolved(o.maxUnresolved);
  const input = heroEvaluateInput(o);
  if (o.dryRun) {
    const plan = await withInterruptShown((signal, onProgress) =>
      impls.planHero({ ...input, signal, onProgress }),
    );
    return printDryRun(plan, !!o.json);
  }
  const r = await withInterruptShown((signal, onProgress) =>
    impls.evaluateHero({ ...input, signal, onProgress }),
  );
  const { summary, insertions } = r.result;
  const unresolved = summary.unresolved;
  const what = input.protocol === 'listwise' ? 'judge answers' : 'comparisons';
  const last = unresolved ? unresolvedLine(unresolved, maxUnresolved, what) : undefined;
  if (o.json) {
    printJson(summary);
    // the JSON stays one document: the line goes to stderr
    if (last) process.stderr.write(`${last}\n`);
  } else
    printLines([
      heroTable(summary),
      `${r.run.calls} calls, ${r.run.cached} from cache (${summary.questions} questions for ${insertions.length} insertions)`,
      `reports: ${r.files.join(', ')}`,
      ...(last ? [last] : []),
    ]);
  if (!r.result.complete)
    throw new PartialError(
      `stopped at --max-calls ${input.maxCalls} with ${insertions.length} insertions scored; run again to resume from the judge cache ${input.judge.cache}`,
      [],
    );
  if (unresolved) checkUnresolved(unresolved, maxUnresolved, join(o.out, 'insertions.jsonl'), what);
}

export function registerHeroEvaluate(hero: Command, impls: CliImpls): void {
  const cmd = hero
    .command('evaluate')
    .description('score selections by inserting every frame into every chain of its film');
  addLayoutFlag(addFlags(cmd, evaluateFlagSpecs())).action((o: EvaluateFlags) => runEvaluate(o, impls));
}
