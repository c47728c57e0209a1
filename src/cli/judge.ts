/** `kfbench judge …` and `kfbench cache …`: try a judge by hand, inspect the cache. */
import type { Command } from 'commander';
import { PartialError, UsageError } from '../errors.js';
import {
  DEFAULT_INSTRUCTIONS,
  insertFile,
  instructionsWithRubric,
  judgePairFiles,
} from '../judge/by-hand.js';
import { cacheFileRows, cacheFileStats, pruneCacheFile } from '../judge/cache-file.js';
import { mergeJudgeCaches } from '../judge/cache-merge.js';
import { INSERTION_PROTOCOLS } from '../judge/insertion.js';
import { resolveJudgeSettings } from '../judge/precedence.js';
import { JUDGE_FORMS } from '../judge/registry.js';
import type { JudgeFlags, JudgeSettings } from '../judge/settings.js';
import { DEFAULT_MAX_UNRESOLVED } from '../judge/unresolved.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import { oneOf, parseNumberFlag, printJson, printLines } from './output.js';

/** The judge flags; `cacheDefault` names where the judge cache goes when none is given. */
export function judgeFlagSpecs(o: { cacheDefault?: string } = {}) {
  return flagSpecs({
    judge: { flags: '--judge <spec>', description: JUDGE_FORMS },
    judgeUrl: {
      flags: '--judge-url <url>',
      description: 'another endpoint of the same model (repeatable)',
      parse: (v: string, acc: string[] = []) => [...acc, v],
    },
    config: {
      flags: '--config <file>',
      description:
        'JSON config: judge, judge_urls, concurrency, rpm, tpm, timeout_s, max_retries, max_retry_wait_s, max_side, temperature, max_tokens, max_reply_bytes (longest reply kept, default 1048576: a longer one is unresolved, and a reply body is read no further than 6 × it + 64 KiB), cache, claim_lease_s, api_key; an unknown key is an error',
    },
    judgeCache: {
      flags: '--judge-cache <file>',
      description: `SQLite judge cache${o.cacheDefault ? ` (default ${o.cacheDefault}; a second run resumes from it)` : ''}`,
    },
    cache: { flags: '--cache <file>', description: 'deprecated: --judge-cache', hidden: true },
    concurrency: { flags: '--concurrency <n>', description: 'requests in flight (default 16)' },
    rpm: {
      flags: '--rpm <n>',
      description: 'at most n requests per minute, shared by every call of the process',
    },
    tpm: {
      flags: '--tpm <n>',
      description: 'at most n tokens per minute (estimated before a call, corrected from its usage)',
    },
    timeout: {
      flags: '--timeout <s>',
      description: "per-request timeout in seconds, the reply's parse included (default 120)",
    },
    maxRetries: { flags: '--max-retries <n>', description: 'retries of a failed request (default 6)' },
    maxRetryWait: {
      flags: '--max-retry-wait <s>',
      description:
        "longest wait before a retry that a server's Retry-After may impose, in seconds (default 300): a longer one is cut to it, and the retry says so",
    },
    maxSide: { flags: '--max-side <px>', description: 'long side of images sent (default 768)' },
  });
}

/** The judge flags as commander gives them. */
export type JudgeFlagValues = FlagValues<ReturnType<typeof judgeFlagSpecs>>;

/** The judge flags added to `cmd` (`judgeFlagSpecs`). */
export function judgeOptions(cmd: Command, o: { cacheDefault?: string } = {}): Command {
  return addFlags(cmd, judgeFlagSpecs(o));
}

/**
 * `--max-unresolved <pct>` of the commands that score with a judge: a percentage of the judge's
 * answers (0–100, a trailing "%" allowed; 5 by default), above which the run ends with exit 5 after
 * writing its outputs. A percentage, as the run reports the share.
 */
export function maxUnresolvedSpecs(what: string) {
  return flagSpecs({
    maxUnresolved: {
      flags: '--max-unresolved <pct>',
      description: `exit 5 when more than this percentage (0–100) of the ${what} are unresolved (prose, refusals, off-schema replies); the results are written all the same`,
      default: String(100 * DEFAULT_MAX_UNRESOLVED),
    },
  });
}

/** `--max-unresolved` as a fraction in [0, 1]; out of range or not a number is a usage error. */
export function parseMaxUnresolved(v: string): number {
  const t = v.trim().replace(/\s*%$/, '');
  const pct = Number(t);
  if (t === '' || !Number.isFinite(pct) || pct < 0 || pct > 100)
    throw new UsageError(`--max-unresolved takes a percentage from 0 to 100 (e.g. 5 or 5%), got "${v}"`);
  return pct / 100;
}

export function judgeFlags(o: JudgeFlagValues): JudgeFlags {
  const int = (name: string, v: string | undefined, min: number) =>
    v === undefined ? undefined : parseNumberFlag(name, v, (n) => Number.isInteger(n) && n >= min);
  return {
    judge: o.judge,
    judgeUrl: o.judgeUrl,
    config: o.config,
    cache: o.judgeCache ?? deprecatedCache(o.cache),
    concurrency: int('--concurrency', o.concurrency, 1),
    rpm: o.rpm === undefined ? undefined : parseNumberFlag('--rpm', o.rpm, (n) => n > 0),
    tpm: o.tpm === undefined ? undefined : parseNumberFlag('--tpm', o.tpm, (n) => n > 0),
    timeoutS: o.timeout === undefined ? undefined : parseNumberFlag('--timeout', o.timeout, (n) => n > 0),
    maxRetries: int('--max-retries', o.maxRetries, 0),
    maxRetryWaitS:
      o.maxRetryWait === undefined
        ? undefined
        : parseNumberFlag('--max-retry-wait', o.maxRetryWait, (n) => n >= 0),
    maxSide: int('--max-side', o.maxSide, 16),
  };
}

/** The judge's settings from its flags: --judge, else "judge" in --config, else KFBENCH_JUDGE. */
export function judgeSettings(o: JudgeFlagValues): JudgeSettings {
  return resolveJudgeSettings(judgeFlags(o));
}

/** `--cache` where it meant the judge cache: still taken, with one line saying what replaces it. */
function deprecatedCache(file: string | undefined): string | undefined {
  if (file !== undefined)
    process.stderr.write(
      'warning: --cache is deprecated here: use --judge-cache FILE (the same judge cache)\n',
    );
  return file;
}

function instructionsFrom(o: { instructions?: string | undefined; rubric?: string | undefined }): string {
  return instructionsWithRubric(o.instructions ?? DEFAULT_INSTRUCTIONS, o.rubric);
}

/** `--rubric` and `--instructions` of judge pair and insert. */
const PROMPT_FLAG_SPECS = flagSpecs({
  rubric: { flags: '--rubric <file>', description: 'guideline lines added to the prompt' },
  instructions: {
    flags: '--instructions <text>',
    description: 'what to judge',
    default: DEFAULT_INSTRUCTIONS,
  },
  ...JSON_FLAG_SPECS,
});

const PAIR_FLAG_SPECS = flagSpecs({ ...judgeFlagSpecs(), ...PROMPT_FLAG_SPECS });

const INSERT_FLAG_SPECS = flagSpecs({
  ...judgeFlagSpecs(),
  chain: {
    flags: '--chain <images>',
    description: 'comma-separated chain images, best first',
    required: true,
  },
  protocol: {
    flags: '--protocol <p>',
    description: `${INSERTION_PROTOCOLS.join(' | ')} (listwise: the published positional question, as hero evaluate)`,
    default: 'listwise',
  },
  ...PROMPT_FLAG_SPECS,
});

/** `kfbench judge pair`. */
function registerPair(judge: Command): void {
  const cmd = judge
    .command('pair')
    .description('compare two images under both placements')
    .argument('<a>')
    .argument('<b>');
  addFlags(cmd, PAIR_FLAG_SPECS).action(
    async (a: string, b: string, o: FlagValues<typeof PAIR_FLAG_SPECS>) => {
      const { reader, answer: r } = await judgePairFiles({
        judge: judgeSettings(o),
        a,
        b,
        instructions: instructionsFrom(o),
      });
      if (o.json) printJson(r);
      else
        printLines([
          `${r.status}: ${r.winner === 'A' ? a : r.winner === 'B' ? b : 'no winner'}  (judge ${reader}; ${r.calls} calls, ${r.cached} from cache)`,
          ...r.verdicts.map(
            (v) =>
              `  ${v.placement}: ${v.winner ?? `unresolved (${v.unresolved})`}${v.reason ? ` — ${v.reason}` : ''}`,
          ),
        ]);
    },
  );
}

/** `kfbench judge insert`. */
function registerInsert(judge: Command): void {
  const cmd = judge
    .command('insert')
    .description('insert an image into a chain ordered best first')
    .argument('<candidate>');
  addFlags(cmd, INSERT_FLAG_SPECS).action(async (f: string, o: FlagValues<typeof INSERT_FLAG_SPECS>) => {
    const protocol = oneOf('--protocol', o.protocol, INSERTION_PROTOCOLS);
    const chainFiles = o.chain.split(',').filter(Boolean);
    if (chainFiles.length === 0) throw new UsageError('--chain needs at least one image');
    const r = await insertFile({
      judge: judgeSettings(o),
      candidate: f,
      chain: chainFiles,
      instructions: instructionsFrom(o),
      protocol,
    });
    if (o.json) printJson(r);
    else
      printLines([
        `position ${r.position} of ${chainFiles.length} (above ${r.position} chain images; ${r.calls} calls, ${r.cached} from cache, ${r.unresolved} unresolved)`,
      ]);
  });
}

/** `--cache FILE` of the cache commands. */
const CACHE_FLAG_SPECS = flagSpecs({
  cache: { flags: '--cache <file>', description: 'cache file', required: true },
});

const CACHE_JSON_FLAG_SPECS = flagSpecs({ ...CACHE_FLAG_SPECS, ...JSON_FLAG_SPECS });

const MERGE_FLAG_SPECS = flagSpecs({
  out: { flags: '--out <file>', description: 'the merged cache (a new file)', required: true },
  ...JSON_FLAG_SPECS,
});

const PRUNE_FLAG_SPECS = flagSpecs({
  ...CACHE_FLAG_SPECS,
  unresolved: { flags: '--unresolved', description: 'answers recorded as unresolved' },
  olderThan: { flags: '--older-than <days>', description: 'answers older than this' },
  model: { flags: '--model <name>', description: "one model's answers" },
  ...JSON_FLAG_SPECS,
});

/** `kfbench cache stats`. */
function registerStats(cache: Command): void {
  const cmd = cache
    .command('stats')
    .description(
      'how many answers a cache holds, per judge model and protocol (reads; never creates a file)',
    );
  addFlags(cmd, CACHE_JSON_FLAG_SPECS).action((o: FlagValues<typeof CACHE_JSON_FLAG_SPECS>) => {
    const s = cacheFileStats(o.cache);
    if (o.json) printJson(s);
    else
      printLines([
        `${s.rows} answers (${s.unresolved} unresolved), ${(s.bytes / 1e6).toFixed(2)} MB`,
        ...s.by_model.map((m) => `  ${m.backend}:${m.model} ${m.protocol}: ${m.n}`),
      ]);
  });
}

/** `kfbench cache merge`. */
function registerMerge(cache: Command): void {
  const cmd = cache
    .command('merge')
    .description(
      'the union of judge caches (one per shard) into a new file; conflicting answers are reported',
    )
    .argument('<caches...>', 'cache files');
  addFlags(cmd, MERGE_FLAG_SPECS).action((files: string[], o: FlagValues<typeof MERGE_FLAG_SPECS>) => {
    const r = mergeJudgeCaches(files, o.out);
    if (o.json) printJson(r);
    else
      printLines([
        `${r.rows} answers from ${r.inputs.length} caches (${r.shared} held by more than one), ${r.conflicts.length} conflicts; written to ${o.out}`,
      ]);
    if (r.conflicts.length) {
      const c = r.conflicts[0]!;
      throw new PartialError(
        `${r.conflicts.length} key(s) hold different answers in different caches (first: ${c.key} in ${c.kept} and ${c.other}); the first cache's answer was kept`,
        r.conflicts.map((x) => x.key),
      );
    }
  });
}

/** `kfbench cache export`. */
function registerExport(cache: Command): void {
  const cmd = cache.command('export').description('every cached answer as JSON Lines on stdout');
  addFlags(cmd, CACHE_FLAG_SPECS).action((o: FlagValues<typeof CACHE_FLAG_SPECS>) => {
    for (const r of cacheFileRows(o.cache)) process.stdout.write(`${JSON.stringify(r)}\n`);
  });
}

/** `kfbench cache prune`. */
function registerPrune(cache: Command): void {
  const cmd = cache
    .command('prune')
    .description('delete cached answers: unresolved ones, older ones, or one model’s');
  addFlags(cmd, PRUNE_FLAG_SPECS).action((o: FlagValues<typeof PRUNE_FLAG_SPECS>) => {
    if (!o.unresolved && o.olderThan === undefined && !o.model)
      throw new UsageError('say what to prune: --unresolved, --older-than DAYS and/or --model NAME');
    const deleted = pruneCacheFile(o.cache, {
      ...(o.unresolved ? { unresolved: true } : {}),
      ...(o.olderThan !== undefined
        ? { olderThanS: 86400 * parseNumberFlag('--older-than', o.olderThan, (n) => n >= 0) }
        : {}),
      ...(o.model ? { model: o.model } : {}),
    });
    if (o.json) printJson({ deleted });
    else printLines([`deleted ${deleted} answers`]);
  });
}

export function registerJudge(judge: Command): void {
  registerPair(judge);
  registerInsert(judge);
}

export function registerCache(cache: Command): void {
  registerStats(cache);
  registerMerge(cache);
  registerExport(cache);
  registerPrune(cache);
}
