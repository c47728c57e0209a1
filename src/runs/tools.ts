/**
 * The tools a run opens and closes (issue 58 item 1): its judge (with its cache and image
 * encoder), its embedder and its scan cache, each opened only when the run's settings name it, and
 * closed together — in the reverse order, also when the run fails:
 *
 *   return withTools({ judge: settings.judge, signal, onProgress }, (tools) =>
 *     evaluate({ ...inputs, judge: tools.needJudge().judge }));
 *
 * Every run in src/runs opens its tools here and hands them to the benchmark function, which
 * neither opens nor closes anything. `Tools` is AsyncDisposable, so a library user may also write
 * `await using tools = await openTools(…)`; src/ does not, because dependency-cruiser's parser
 * (`npm run lint`) does not know that statement yet.
 */
import { existsSync } from 'node:fs';
import type { CompassRunInput } from '../compass/run/run.js';
import { ScanCache } from '../compass/scan/cache.js';
import type { Embedder } from '../embed/embedder.js';
import type { OnnxOptions } from '../embed/onnx-options.js';
import { createEmbedder } from '../embed/registry.js';
import { InternalError } from '../errors.js';
import { type OpenedJudge, openJudge } from '../judge/registry.js';
import type { JudgeSettings } from '../judge/settings.js';
import type { OnProgress } from '../progress.js';

export interface ToolSettings {
  /** Open a judge with these settings (its cache file resolved). */
  judge?: JudgeSettings | undefined;
  /**
   * A dry run's judge: its cache opened read-only, and only when the file exists (a count of what
   * it holds must not make one).
   */
  judgeReadOnly?: boolean | undefined;
  /** The judge reports its calls on `onProgress` (JUDGE_CALLS). */
  judgeProgress?: boolean | undefined;
  /** Open this embedder (`builtin`, `onnx:PATH`, `hf:ORG/REPO`) with its ONNX options. */
  embedder?: { spec: string; options?: OnnxOptions | undefined } | undefined;
  /** Open this scan cache file. */
  scanCache?: { file: string; readOnly?: boolean | undefined } | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: OnProgress | undefined;
}

export interface Tools extends AsyncDisposable {
  readonly judge: OpenedJudge | undefined;
  readonly embedder: Embedder | undefined;
  readonly scanCache: ScanCache | undefined;
  /** The judge, which the run's settings must have named. */
  needJudge(): OpenedJudge;
  needEmbedder(): Embedder;
}

export async function openTools(s: ToolSettings): Promise<Tools> {
  // closed in the reverse order of opening (Node 22 has no AsyncDisposableStack)
  const opened: (() => unknown)[] = [];
  const closeAll = async () => {
    for (const close of opened.splice(0).reverse()) await close();
  };
  try {
    const judge = s.judge ? await openRunJudge(s) : undefined;
    if (judge) opened.push(() => judge.close());
    const embedder = s.embedder
      ? await createEmbedder(s.embedder.spec, s.embedder.options ?? {}, { onProgress: s.onProgress })
      : undefined;
    if (embedder) opened.push(() => embedder.close());
    const scanCache = s.scanCache
      ? new ScanCache(s.scanCache.file, { readOnly: s.scanCache.readOnly === true })
      : undefined;
    if (scanCache) opened.push(() => scanCache.close());
    return {
      judge,
      embedder,
      scanCache,
      needJudge: () => judge ?? missing('judge'),
      needEmbedder: () => embedder ?? missing('embedder'),
      [Symbol.asyncDispose]: closeAll,
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

/** `work` with the tools of `s`, closed after it whatever it does. */
export async function withTools<T>(s: ToolSettings, work: (tools: Tools) => Promise<T>): Promise<T> {
  const tools = await openTools(s);
  try {
    return await work(tools);
  } finally {
    await tools[Symbol.asyncDispose]();
  }
}

/**
 * The tools of a Compass run (`compass score`, `evaluate`, `sensitivity`): its judge when it has
 * judge settings, its embedder, and its scan cache (`scanCache` overrides the input's file: a dry
 * run opens only one that exists, read-only).
 */
export function compassToolSettings(
  o: CompassRunInput,
  opts: {
    judgeProgress: boolean;
    readOnly?: boolean | undefined;
    scanCache?: string | undefined;
  },
): ToolSettings {
  const scanFile = 'scanCache' in opts ? opts.scanCache : o.scanCache;
  return {
    judge: o.judge,
    judgeReadOnly: opts.readOnly,
    judgeProgress: opts.judgeProgress,
    embedder: { spec: o.embedder, options: o.embedderOptions },
    scanCache: scanFile === undefined ? undefined : { file: scanFile, readOnly: opts.readOnly },
    signal: o.signal,
    onProgress: o.onProgress,
  };
}

function openRunJudge(s: ToolSettings): Promise<OpenedJudge> {
  const settings = s.judge!;
  const cache =
    s.judgeReadOnly && settings.cache !== undefined && !existsSync(settings.cache)
      ? undefined
      : settings.cache;
  return openJudge(
    { ...settings, cache, cacheReadOnly: s.judgeReadOnly === true },
    { signal: s.signal, ...(s.judgeProgress === false ? {} : { onProgress: s.onProgress }) },
  );
}

function missing(what: string): never {
  throw new InternalError(`the run's settings opened no ${what}, and its work needs one`);
}
