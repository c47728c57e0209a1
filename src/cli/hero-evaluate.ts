/** `kfbench hero build` and `hero evaluate`: chains for your films, and methods scored by insertion. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { PartialError, UsageError } from '../errors.js';
import { STILLS_RULES } from '../hero/evaluate.js';
import { methodName } from '../hero/evaluate-inputs.js';
import { roundTotals } from '../hero/rubric-learn.js';
import { DISAGREEMENT_RULES, INSERTION_PROTOCOLS } from '../judge/insertion.js';
import { checkUnresolved, unresolvedLine } from '../judge/unresolved.js';
import { heroTable } from '../report/hero.js';
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
import { renderProgress } from './progress.js';
import { parseShard } from './shard-flag.js';

/** `hero build`’s flags as commander gives them. */
interface BuildFlags extends JudgeFlagValues {
  data: string;
  lsmdc: string;
  stills: string;
  chainsPerFilm: string;
  seed: string;
  learnRubric?: boolean;
  rounds: string;
  maxRules: string;
  json?: boolean;
}

/** `hero evaluate`’s flags as commander gives them. */
interface EvaluateFlags extends JudgeFlagValues {
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

export function registerHeroEvaluate(hero: Command, impls: CliImpls): void {
  judgeOptions(
    hero
      .command('build')
      .description(
        'build chains for your films: a still and five off-grid frames, judged in both placements, Bradley–Terry, still floor',
      ),
  )
    .requiredOption(
      '--data <dir>',
      'dataset root (movies.jsonl, clips.jsonl; chains.jsonl and images/ are written)',
    )
    .requiredOption('--lsmdc <dir>', 'footage: <dir>/<movie_id>/<clip_id>.<ext>')
    .requiredOption('--stills <dir>', 'publicity stills: <dir>/<movie_id>/<image_id>.jpg')
    .option('--chains-per-film <n>', 'chains per film', '10')
    .option('--seed <s>', 'seed', '0')
    .option(
      '--learn-rubric',
      "learn each film's rubric first (rounds of proposals through two admission gates)",
    )
    .option('--rounds <n>', 'rubric-learning rounds (stop early when one admits nothing)', '2')
    .option('--max-rules <n>', 'at most this many rules per film', '20')
    .option('--json', 'print JSON')
    .action(async (o: BuildFlags) => {
      const chainsPerFilm = parseNumberFlag(
        '--chains-per-film',
        o.chainsPerFilm,
        (n) => Number.isInteger(n) && n >= 1,
      );
      const rounds = parseNumberFlag('--rounds', o.rounds, (n) => Number.isInteger(n) && n >= 1);
      const maxRules = parseNumberFlag('--max-rules', o.maxRules, (n) => Number.isInteger(n) && n >= 1);
      const shown = renderProgress();
      const r = await impls
        .buildChains({
          judge: judgeSettings(o),
          data: o.data,
          lsmdc: o.lsmdc,
          stills: o.stills,
          chainsPerFilm,
          seed: o.seed,
          learnRubric: !!o.learnRubric,
          rounds,
          maxRules,
          onProgress: shown.onProgress,
        })
        .finally(() => shown.close());
      if (o.json) printJson(r);
      else
        printLines([
          `built ${r.chains} chains for ${r.films} films with ${r.reader}: ${r.pairs} pairs, ${(100 * r.confident_share).toFixed(1)} % confident, ${r.still_replacements} still replacements, ${r.still_floor_unmet} chains kept with the still floor unmet (no still left), ridge in ${r.ridge_used} chains`,
          `stability on ${r.stability.chains} chains re-judged with the letters swapped between the images: agreement ${r.stability.agreement === null ? '—' : `${(100 * r.stability.agreement).toFixed(1)} %`}, Kendall τ ${r.stability.kendall_tau?.toFixed(3) ?? '—'}`,
          ...(r.rubric
            ? [
                `rubric: ${r.rubric.rules} rules kept, ${r.rubric.pruned_by_phase_b} pruned by Phase B; per round ${roundTotals(
                  r.rubric.rounds,
                )
                  .map(
                    (t) =>
                      `round ${t.round}: ${t.proposals} proposals, ${t.admitted} admitted, rejection ${(100 * t.rejection_rate).toFixed(1)} % (gate 1 ${t.rejected_gate1}, gate 2 ${t.rejected_gate2})`,
                  )
                  .join('; ')}`,
              ]
            : []),
        ]);
    });

  maxUnresolvedOption(
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
    .option('--json', 'print the summary as JSON')
    .action(async (o: EvaluateFlags) => {
      const maxUnresolved = parseMaxUnresolved(o.maxUnresolved);
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
      const names = new Map<string, number>();
      const methods = o.selections.map((file) => {
        const base = methodName(file);
        const n = (names.get(base) ?? 0) + 1;
        names.set(base, n);
        return { method: n > 1 ? `${base}#${n}` : base, file };
      });
      // flags first: a bad --shard is refused before the judge's cache is made
      const shard = o.shard ? parseShard(o.shard) : undefined;
      const bootstrapB = parseNumberFlag('--bootstrap', o.bootstrap, (n) => Number.isInteger(n) && n >= 100);
      const resolved = judgeSettings(o);
      // the judge cache lives with the results unless given: a second run resumes, a dry run counts
      // it (and never creates it)
      const cacheFile = resolved.cache ?? join(o.out, 'judge-cache.sqlite');
      const maxCalls =
        o.maxCalls === undefined
          ? undefined
          : parseNumberFlag('--max-calls', o.maxCalls, (n) => Number.isInteger(n) && n >= 0);
      const r = await withInterruptShown((signal, onProgress) =>
        impls.evaluateHero({
          judge: { ...resolved, cache: cacheFile },
          out: o.out,
          signal,
          onProgress,
          data: o.data,
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
        }),
      );
      if (r.kind === 'dry-run') {
        const d = r.dryRun;
        const out = {
          dry_run: true,
          insertions: d.insertions,
          questions: d.questions,
          cached: d.cached,
          to_ask: d.questions - d.cached,
          upper_bound: d.upper_bound,
        };
        if (o.json) printJson(out);
        else
          printLines([
            `${d.insertions} insertions need ${d.upper_bound ? 'at most ' : ''}${d.questions} questions (re-asks aside); the cache holds ${d.cached}; ${d.questions - d.cached} to ask`,
          ]);
        return;
      }
      const { summary, insertions } = r.result;
      const unresolved = summary.unresolved;
      const what = protocol === 'listwise' ? 'judge answers' : 'comparisons';
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
          `stopped at --max-calls ${maxCalls} with ${insertions.length} insertions scored; run again to resume from the judge cache ${cacheFile}`,
          [],
        );
      if (unresolved) checkUnresolved(unresolved, maxUnresolved, join(o.out, 'insertions.jsonl'), what);
    });
}
