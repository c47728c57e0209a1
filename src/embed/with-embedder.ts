/**
 * An embedder for the length of one call (`kfbench embed similarity`, `embed calibrate`): made from
 * its spec and options, with an embedding cache when one is named, handed to the call and closed
 * whatever the call does.
 */
import { loadImage } from '../media/image.js';
import type { OnProgress } from '../progress.js';
import { withEmbeddingCache } from './cache.js';
import { type CalibrationReport, calibrateFromPairs } from './calibrate.js';
import { cosine, type Embedder, embedTwo } from './embedder.js';
import type { OnnxOptions } from './onnx-options.js';
import { createEmbedder } from './registry.js';

/** Which embedder: its spec (`builtin`, `onnx:PATH`, `hf:ORG/REPO` …), ONNX options, and an embedding cache file. */
export interface EmbedderChoice {
  spec: string;
  options?: OnnxOptions | undefined;
  cache?: string | undefined;
  /** Where a hub model's download progress goes. */
  onProgress?: OnProgress | undefined;
}

async function withEmbedder<T>(c: EmbedderChoice, fn: (e: Embedder) => Promise<T>): Promise<T> {
  const inner = await createEmbedder(c.spec, c.options ?? {}, { onProgress: c.onProgress });
  const e = c.cache ? withEmbeddingCache(inner, c.cache) : inner;
  try {
    return await fn(e);
  } finally {
    await e.close();
  }
}

/** The cosine similarity of two image files under the embedder, with its id and its match threshold. */
export function imageSimilarity(
  c: EmbedderChoice,
  a: string,
  b: string,
): Promise<{ cosine: number; embedder: string; threshold: number | undefined }> {
  return withEmbedder(c, async (e) => {
    const [va, vb] = await embedTwo(e, await loadImage(a), await loadImage(b));
    return { cosine: cosine(va, vb), embedder: e.id, threshold: e.defaultThreshold };
  });
}

/** The equal-error threshold of the embedder on the labelled pairs of `pairsFile`, with the embedder's id and version. */
export function calibrateEmbedder(
  c: EmbedderChoice,
  pairsFile: string,
  gamma?: number,
): Promise<{ report: CalibrationReport; embedder: string; version: string }> {
  return withEmbedder(c, async (e) => ({
    report: await calibrateFromPairs(pairsFile, e, gamma),
    embedder: e.id,
    version: e.version,
  }));
}
