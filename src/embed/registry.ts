/** Embedders by name: `builtin` or `onnx:PATH`. */
import { UsageError } from '../errors.js';
import { createBuiltinEmbedder } from './builtin.js';
import type { Embedder } from './embedder.js';
import { loadOnnxEmbedder, type OnnxOptions } from './onnx.js';

export const EMBEDDER_FORMS = 'builtin | onnx:PATH';

export async function createEmbedder(spec: string, opts: OnnxOptions = {}): Promise<Embedder> {
  if (spec === 'builtin') return createBuiltinEmbedder();
  if (spec.startsWith('onnx:') && spec.length > 5) return loadOnnxEmbedder(spec.slice(5), opts);
  throw new UsageError(`--embedder must be ${EMBEDDER_FORMS}, got "${spec}"`);
}
