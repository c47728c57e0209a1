/**
 * `kfbench hero evaluate`: methods scored by insertion. The flags are parsed into the run's options
 * object (`heroEvaluateInput` → `HeroFolderInput`), the run is `evaluateHeroFolder`
 * (src/runs/hero-evaluate.ts), and what it returns is printed here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { PartialError, UsageError } from '../errors.js';
import type { Layout } from '../hero/dataset/layout-map.js';
import { STILLS_RULES } from '../hero/evaluate.js';
import { methodName } from '../hero/evaluate-inputs.js';
import { DISAGREEMENT_RULES, INSERTION_PROTOCOLS } from '../judge/insertion.js';
import { checkUnresolved, unresolvedLine } from '../judge/unresolved.js';
import { heroTable } from '../report/hero.js';
import type { HeroFolderInput, HeroFolderOutcome } from '../runs/hero-evaluate.js';
import type { CliImpls } from './impls.js';
import { withInterruptShown } from './interrupt.js';
import {
  type JudgeFlagValues,
  judgeOptions,
  judgeSettings,
  maxUnresolvedOption,
  parseMaxUnresolved,
} from './judge.js';
import { oneOf, parseNumberFlag, printJson, printLines } from './output.js';
import { parseShard } from './shard-flag.js';

/** `hero evaluate`’s flags as commander gives them. */
interface EvaluateFlags extends JudgeFlagValues {
  /** The map of `--layout FILE`, else `KFBENCH_HERO_LAYOUT` (program.ts resolves it for every hero command that reads a root). */
  layout: Layout;
  selections: string[];
  data: string;
  track: string;
  protocol: string;
  bothOrders?: boolean;
  promptTemplate?: string;
  disagreement: string;
  includeStills?: boolean;
  stills: string;
  stillsDir?: string;
  rescoreOfficial?: boolean;
  missing: string;
  dryRun?: boolean;
  maxCalls?: string;
  out: string;
  movies?: string[];
  shard?: string;
  seed: string;
  bootstrap: string;
  maxUnresolved: string;
  json?: boolean;
}

/** `hero evaluate`'s flags and their help. */
function evaluateCommand(hero: Command): Command {
  return maxUnresolvedOption(
    judgeOptions(
      hero
        .command('evaluate')
        .description('score selections by inserting every frame into every chain of its film'),
      { cacheDefault: '<out>/judge-cache.sqlite' },
    ),
    'judge answers (listwise) or comparisons (pairwise, binary)',
  )
    .requiredOption(
      '--selections <files...>',
      "one or more methods' selections files (the method is the file name)",
    )
    .requiredOption('--data <dir>', 'dataset root')
    .requiredOption('--track <dir>', 'the rebuilt 1 fps track')
    .option(
      '--protocol <p>',
      `${INSERTION_PROTOCOLS.join(' | ')} (listwise: the published positional question)`,
      'listwise',
    )
    .option('--both-orders', 'listwise: ask again with the chain shown worst first and record disagreements')
    .option(
      '--disagreement <rule>',
      `with --both-orders, how a disagreement scores: ${DISAGREEMENT_RULES.join(' | ')}`,
      'error',
    )
    .option('--include-stills', 'add the human reference row "stills"')
    .option(
      '--stills <which>',
      `${STILLS_RULES.join(' | ')}: the stills row scores every publicity still of the film (all: those the still floor deleted too, read from --stills-dir) or only those in some chain`,
      'all',
    )
    .option(
      '--stills-dir <dir>',
      'the publicity stills hero build read (<dir>/<movie_id>/<image_id>.jpg), for --stills all',
    )
    .option('--rescore-official', 'score the official selections of eval/baselines.jsonl with this reader')
    .option('--missing <how>', 'a film without a submission: error | zero', 'error')
    .option('--dry-run', 'print the calls needed and how many the judge cache holds; spend none')
    .option(
      '--max-calls <n>',
      'make at most this many judge calls, at any --concurrency (exit 5; run again to resume from the judge cache)',
    )
    .option(
      '--prompt-template <file>',
      "the reader's listwise prompt as a template (default: derived from the release's eval/judge_prompt_example.md, else kfbench's wording; see kfbench hero prompt)",
    )
    .option('--out <dir>', 'output folder', 'hero-eval')
    .option('--movies <ids...>', 'only these films (a merge then needs the others from other folders)')
    .option(
      '--shard <k/n>',
      'a deterministic k-th of n shards of the films (own --out, so its own judge cache; see kfbench merge)',
    )
    .option('--seed <s>', 'bootstrap seed', '0')
    .option('--bootstrap <n>', 'bootstrap resamples', '1000')
    .option('--json', 'print the summary as JSON');
}

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
    dryRun: !!o.dryRun,
    maxCalls,
    seed: o.seed,
    bootstrapB,
    movies: o.movies,
    shard,
  };
}

function printDryRun(d: Extract<HeroFolderOutcome, { kind: 'dry-run' }>['dryRun'], json: boolean): void {
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
  const r = await withInterruptShown((signal, onProgress) =>
    impls.evaluateHero({ ...input, signal, onProgress }),
  );
  if (r.kind === 'dry-run') return printDryRun(r.dryRun, !!o.json);
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
  evaluateCommand(hero).action((o: EvaluateFlags) => runEvaluate(o, impls));
}
