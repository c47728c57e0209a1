/**
 * `hero evaluate` (and `hero build`) as one call, whoever makes it (the CLI, the demo, a library user): the judge
 * opened from its settings and closed, the methods evaluated, and the records of the run made once
 * — run.json (reader, protocol, calls, wall time) and settings.json (what a merge compares). The
 * files are written by `writeHeroRun` (report/hero-outputs.ts), which renders the reports.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { judgeIdentity } from '../judge/identity.js';
import type { Judge } from '../judge/judge.js';
import { type JudgeSettings, openJudge } from '../judge/registry.js';
import type { ShardRecord } from '../store/shards.js';
import { type BuildOptions, buildChains } from './build.js';
import type { BuildReport } from './dataset/schemas.js';
import { type EvaluateOptions, type EvaluateResult, evaluate } from './evaluate.js';
import { heroShardRecord } from './merge.js';
import type { HeroEvaluateRun } from './results.js';

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
  const j = await openJudge({ ...settings, cache }, { signal: o.signal, onProgress: o.onProgress });
  const t0 = Date.now();
  try {
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
  } finally {
    await j.close();
  }
}

export interface BuildRunInput extends Omit<BuildOptions, 'judge' | 'encoder'> {
  /** The judge's settings (its cache file resolved). */
  judge: JudgeSettings;
}

/** What `hero build` made, with the reader that judged and its calls. */
export type BuildRunReport = BuildReport & { reader: string; calls: number; cached: number };

/** `hero build` as one call: the judge opened from its settings (closed whatever happens), the chains built. */
export async function buildChainsRun(o: BuildRunInput): Promise<BuildRunReport> {
  const { judge: settings, ...input } = o;
  const j = await openJudge(settings, { onProgress: o.onProgress });
  try {
    const r = await buildChains({ ...input, judge: j.judge, encoder: j.encoder });
    return { ...r, reader: j.judge.name, calls: j.judge.stats.calls, cached: j.judge.stats.cached };
  } finally {
    await j.close();
  }
}
