/**
 * `hero evaluate` as one call, whoever makes it (the CLI, the demo, a library user), in the shape
 * of every run (issue 58 item 1): the judge opened from its settings (`withTools`, tools.ts) and closed, the
 * methods evaluated by the benchmark function (hero/evaluate/evaluate.ts) with the judge handed to it, the
 * records of the run made once — run.json (reader, protocol, calls, wall time) and settings.json
 * (what a merge compares) — and the folder written by `writeHeroRun` (report/hero-outputs.ts). A
 * dry run is its own function, `planHeroRun`: the judge's cache read only, nothing asked or written.
 * The CLI (src/cli/hero-evaluate.ts) only parses its flags into `HeroFolderInput`.
 */
import { resolve } from 'node:path';
import {
  type EvaluateResult,
  type EvaluationPlan,
  evaluate,
  planEvaluation,
} from '../hero/evaluate/evaluate.js';
import type { EvaluateOptions } from '../hero/evaluate/options.js';
import { heroShardRecord } from '../hero/merge.js';
import type { HeroEvaluateRun } from '../hero/results.js';
import { judgeIdentity } from '../judge/identity.js';
import type { Judge } from '../judge/judge.js';
import type { JudgeSettings } from '../judge/settings.js';
import { HERO_FOLDER_FILES, writeHeroRun } from '../report/hero-outputs.js';
import { type NamedPath, outputFiles, refuseOverlap } from '../store/path-overlap.js';
import type { ShardRecord } from '../store/shards.js';
import { withTools } from './tools.js';

export interface HeroRunInput extends Omit<EvaluateOptions, 'judge' | 'encoder' | 'concurrency'> {
  /**
   * The judge's settings, its cache file resolved (a second run resumes from it); its
   * `concurrency` is the evaluation's. A dry run reads the cache only when the file exists.
   */
  judge: JudgeSettings;
}

export interface HeroRunEvaluated {
  result: EvaluateResult;
  /** run.json and settings.json of the run. */
  run: HeroEvaluateRun;
  record: ShardRecord;
}

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

/** Evaluate the methods with the judge of `o.judge`, opened here and closed whatever happens. */
export async function evaluateHeroRun(o: HeroRunInput): Promise<HeroRunEvaluated> {
  const { judge: settings, ...input } = o;
  return withTools({ judge: settings, signal: o.signal, onProgress: o.onProgress }, async (tools) => {
    const j = tools.needJudge();
    const t0 = Date.now();
    const result = await evaluate({
      ...input,
      concurrency: settings.concurrency,
      judge: j.judge,
      encoder: j.encoder,
    });
    const run = heroRunRecord(j.judge, result, Date.now() - t0);
    const record = await heroShardRecord(
      { ...input, data: resolve(o.data), track: resolve(o.track) },
      result,
      judgeIdentity(j.judge.name, settings),
    );
    return { result, run, record };
  });
}

/**
 * `hero evaluate --dry-run`: the questions the evaluation would ask and those its judge cache
 * already holds; the cache is opened read-only (issue 46 item 5), nothing is asked or written.
 */
export async function planHeroRun(o: HeroRunInput): Promise<EvaluationPlan> {
  const { judge: settings, ...input } = o;
  const opened = { judge: settings, judgeReadOnly: true, signal: o.signal, onProgress: o.onProgress };
  return withTools(opened, (tools) => {
    const j = tools.needJudge();
    return planEvaluation({
      ...input,
      concurrency: settings.concurrency,
      judge: j.judge,
      encoder: j.encoder,
    });
  });
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

/**
 * `hero evaluate` as one call: the methods evaluated (`evaluateHeroRun`: the judge opened and
 * closed) and the run written to `out` (`writeHeroRun`), with the files it wrote.
 */
export async function evaluateHeroFolder(
  o: HeroFolderInput,
): Promise<HeroRunEvaluated & { files: string[] }> {
  const { out, ...input } = o;
  const reads = heroReads(input);
  refuseOverlap({ reads, writes: heroRunFiles(out) });
  const r = await evaluateHeroRun(input);
  return { ...r, files: await writeHeroRun(out, r, o.track, reads) };
}
