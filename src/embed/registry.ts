/** Embedders by name: `builtin` or `onnx:PATH`. */
import { availableParallelism } from 'node:os';
import { UsageError } from '../errors.js';
import { createBuiltinEmbedder } from './builtin.js';
import type { Embedder, EmbedderSpec } from './embedder.js';
import type { OnnxOptions } from './onnx.js';

export const EMBEDDER_FORMS = 'builtin | onnx:PATH';

export async function createEmbedder(spec: string, opts: OnnxOptions = {}): Promise<Embedder> {
  if (spec === 'builtin') return createBuiltinEmbedder();
  if (spec.startsWith('onnx:') && spec.length > 5) {
    // onnxruntime-node (and zod for its preprocessing) load only when an ONNX model is asked for:
    // a worker thread with the builtin embedder starts without them
    const { loadOnnxEmbedder } = await import('./onnx.js');
    return loadOnnxEmbedder(spec.slice(5), opts);
  }
  throw new UsageError(`--embedder must be ${EMBEDDER_FORMS}, got "${spec}"`);
}

/** The embedder a spec describes (`Embedder.spec`): a copy of it, e.g. in a worker thread. */
export function embedderFromSpec(spec: EmbedderSpec): Promise<Embedder> {
  return createEmbedder(spec.name, { ...spec.options });
}

/**
 * The spec of one of `copies` embedders that run at once: an ONNX session whose threads were
 * not set gets its share of the cores, max(1, ⌊cores / copies⌋), instead of every core each.
 */
export function shareSpec(spec: EmbedderSpec, copies: number, cores = availableParallelism()): EmbedderSpec {
  if (!spec.name.startsWith('onnx:') || spec.options?.threads !== undefined) return spec;
  return {
    ...spec,
    options: { ...spec.options, threads: Math.max(1, Math.floor(cores / Math.max(1, copies))) },
  };
}
