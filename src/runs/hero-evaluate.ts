/**
 * `hero evaluate` as one call, whoever makes it (the CLI, the demo, a library user): the judge
 * opened from its settings and closed, the methods evaluated, the records of the run made once —
 * run.json (reader, protocol, calls, wall time) and settings.json (what a merge compares) — and,
 * unless it is a dry run, the folder written by `writeHeroRun` (report/hero-outputs.ts, which
 * renders). The CLI (src/cli/hero-evaluate.ts) only parses its flags into `HeroFolderInput`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type EvaluateOptions, type EvaluateResult, evaluate } from '../hero/evaluate.js';
import { heroShardRecord } from '../hero/merge.js';
import type { HeroEvaluateRun } from '../hero/results.js';
import { judgeIdentity } from '../judge/identity.js';
import type { Judge } from '../judge/judge.js';
import type { JudgeSettings } from '../judge/settings.js';
import { withJudge } from '../judge/with-judge.js';
import { HERO_FOLDER_FILES, writeHeroRun } from '../report/hero-outputs.js';
import { type NamedPath, outputFiles, refuseOverlap } from '../store/path-overlap.js';
import type { ShardRecord } from '../store/shards.js';

export interface HeroRunInput extends Omit<EvaluateOptions, 'judge' | 'encoder' | 'concurrency'> {
  /**
   * The judge's settings, its cache file resolved (a second run resumes from it); its
   * `concurrency` is the evaluation's. A dry run reads the cache only when the file exists.
   */
  judge: JudgeSettings;
}

export type HeroRunOutcome =
  | { kind: 'dry-run'; dryRun: NonNullable<EvaluateResult['dryRun']> }
  | {
      kind: 'evaluated';
      result: EvaluateResult;
      /** run.json and settings.json of the run. */
      run: HeroEvaluateRun;
      record: ShardRecord;
    };

/** run.json of an evaluation: the reader, the protocol, the judge's calls and the wall time. */
export function heroRunRecord(judge: Judge, r: EvaluateResult, wall_ms: number): HeroEvaluateRun {
  return {
    reader: judge.name,
    protocol: r.summary.protocol,
    both_orders: r.summary.both_orders,
    ...judge.stats,
    insertions: r.insertions.length,
    complete: r.complete,
    wall_ms,
  };
}

export type HeroRunEvaluated = Extract<HeroRunOutcome, { kind: 'evaluated' }>;

/** Evaluate the methods with the judge of `o.judge`, opened here and closed whatever happens. */
export function evaluateHeroRun(o: HeroRunInput & { dryRun?: false }): Promise<HeroRunEvaluated>;
export function evaluateHeroRun(o: HeroRunInput): Promise<HeroRunOutcome>;
export async function evaluateHeroRun(o: HeroRunInput): Promise<HeroRunOutcome> {
  const { judge: settings, ...input } = o;
  const cache =
    o.dryRun && settings.cache !== undefined && !existsSync(settings.cache) ? undefined : settings.cache;
  return withJudge(
    // a dry run only counts what the cache holds: it opens it read-only (issue 46 item 5)
    { ...settings, cache, cacheReadOnly: o.dryRun === true },
    async (j) => {
      const t0 = Date.now();
      const r = await evaluate({
        ...input,
        concurrency: settings.concurrency,
        judge: j.judge,
        encoder: j.encoder,
      });
      if (r.dryRun) return { kind: 'dry-run', dryRun: r.dryRun };
      const run = heroRunRecord(j.judge, r, Date.now() - t0);
      const record = await heroShardRecord(
        { ...input, data: resolve(o.data), track: resolve(o.track) },
        r,
        judgeIdentity(j.judge.name, settings),
      );
      return { kind: 'evaluated', result: r, run, record };
    },
    { signal: o.signal, onProgress: o.onProgress },
  );
}

/** What `evaluateHeroFolder` takes: the evaluation's input and the output folder. */
export type HeroFolderInput = HeroRunInput & { out: string };

/** The files a hero run writes into `out`. */
const heroRunFiles = (out: string) =>
  outputFiles(
    out,
    HERO_FOLDER_FILES.map((f) => f.name),
  );

/** What `hero evaluate` reads, named by its flags: none of it may be a file the run writes. */
function heroReads(o: HeroRunInput): NamedPath[] {
  return [
    { flag: '--data', path: o.data },
    { flag: '--track', path: o.track },
    { flag: '--layout', path: typeof o.layout === 'string' ? o.layout : undefined },
    { flag: '--stills-dir', path: o.stillsDir },
    { flag: '--judge-cache', path: o.judge.cache },
    ...o.methods.map((m) => ({ flag: '--selections', path: m.file })),
  ];
}

/** What `evaluateHeroFolder` did: a dry run's counts, or the evaluation with the files it wrote. */
export type HeroFolderOutcome =
  | Extract<HeroRunOutcome, { kind: 'dry-run' }>
  | (HeroRunEvaluated & { files: string[] });

/**
 * `hero evaluate` as one call: the methods evaluated (`evaluateHeroRun`: the judge opened and
 * closed) and, unless it is a dry run, the run written to `out` (`writeHeroRun`).
 */
export function evaluateHeroFolder(
  o: HeroFolderInput & { dryRun?: false },
): Promise<HeroRunEvaluated & { files: string[] }>;
export function evaluateHeroFolder(o: HeroFolderInput): Promise<HeroFolderOutcome>;
export async function evaluateHeroFolder(o: HeroFolderInput): Promise<HeroFolderOutcome> {
  const { out, ...input } = o;
  const reads = heroReads(input);
  if (!o.dryRun) refuseOverlap({ reads, writes: heroRunFiles(out) });
  const r = await evaluateHeroRun(input);
  if (r.kind === 'dry-run') return r;
  return { ...r, files: await writeHeroRun(out, r, o.track, reads) };
}
