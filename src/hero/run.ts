/**
 * `hero evaluate` (and `hero build`, `hero select`) as one call, whoever makes it (the CLI, the demo, a library user): the judge
 * opened from its settings and closed, the methods evaluated, and the records of the run made once
 * — run.json (reader, protocol, calls, wall time) and settings.json (what a merge compares). The
 * files are written by `writeHeroRun` (report/hero-outputs.ts), which renders the reports.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OnnxOptions } from '../embed/onnx.js';
import { createEmbedder } from '../embed/registry.js';
import { judgeIdentity } from '../judge/identity.js';
import type { Judge } from '../judge/judge.js';
import type { JudgeSettings, OpenedJudge } from '../judge/registry.js';
import { withJudge } from '../judge/with-judge.js';
import type { ShardRecord } from '../store/shards.js';
import { type BuildOptions, buildChains } from './build.js';
import type { BuildReport } from './dataset/schemas.js';
import { type EvaluateOptions, type EvaluateResult, evaluate } from './evaluate.js';
import { heroShardRecord } from './merge.js';
import type { HeroEvaluateRun } from './results.js';
import { runSelection, type SelectOptions } from './select/run.js';

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

export interface BuildRunInput extends Omit<BuildOptions, 'judge' | 'encoder'> {
  /** The judge's settings (its cache file resolved). */
  judge: JudgeSettings;
}

/** What `hero build` made, with the reader that judged and its calls. */
export type BuildRunReport = BuildReport & { reader: string; calls: number; cached: number };

/** `hero build` as one call: the judge opened from its settings (closed whatever happens), the chains built. */
export async function buildChainsRun(o: BuildRunInput): Promise<BuildRunReport> {
  const { judge: settings, ...input } = o;
  return withJudge(
    settings,
    async (j) => {
      const r = await buildChains({ ...input, judge: j.judge, encoder: j.encoder });
      return { ...r, reader: j.judge.name, calls: j.judge.stats.calls, cached: j.judge.stats.cached };
    },
    { onProgress: o.onProgress },
  );
}

export interface SelectRunInput extends Omit<SelectOptions, 'judge' | 'embedder'> {
  /** The judge's settings, for a method that asks one (vlm-pick); opened here and closed. */
  judge?: JudgeSettings | undefined;
  /** The embedder, for a method that needs one (cluster): builtin | onnx:PATH; opened here and closed. */
  embedder?: string | undefined;
  embedderOptions?: OnnxOptions | undefined;
}

/** `hero select` as one call: what the method needs (a judge, an embedder) opened, the selections written, all closed. */
export async function selectRun(o: SelectRunInput): Promise<{ films: number; frames: number }> {
  const { judge: settings, embedder: spec, embedderOptions, ...input } = o;
  const needs = o.method.needs ?? {};
  const select = async (judge?: OpenedJudge) => {
    const embedder = needs.embedder ? await createEmbedder(spec ?? 'builtin', embedderOptions) : undefined;
    try {
      return await runSelection({
        ...input,
        ...(judge ? { judge: { judge: judge.judge, encoder: judge.encoder } } : {}),
        ...(embedder ? { embedder } : {}),
      });
    } finally {
      await embedder?.close();
    }
  };
  return needs.judge && settings ? withJudge(settings, select) : select();
}
