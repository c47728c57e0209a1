/**
 * An ONNX image model's output made embeddings: a pooled `[N, D]` output as is, or from a
 * `[N, T, D]` token output its class token (`cls`) or the mean of its other tokens (`mean`),
 * each L2-normalised.
 */
import { l2normalize } from './embedder.js';

export type Pooling = 'cls' | 'mean' | 'pooled';

/** One embedding per image of the batch (`data` row-major, `dims` its shape). */
export function poolOutput(
  t: { data: Float32Array; dims: readonly number[] },
  pooling: Pooling,
): Float32Array[] {
  const { data, dims } = t;
  const n = dims[0]!;
  const out: Float32Array[] = [];
  if (pooling === 'pooled' || dims.length === 2) {
    const D = dims[dims.length - 1]!;
    for (let i = 0; i < n; i++) out.push(l2normalize(data.slice(i * D, (i + 1) * D)));
    return out;
  }
  const T = dims[1]!;
  const D = dims[2]!;
  for (let i = 0; i < n; i++) {
    const base = i * T * D;
    if (pooling === 'cls') out.push(l2normalize(data.slice(base, base + D)));
    else {
      const acc = new Float64Array(D);
      for (let t = 1; t < T; t++) for (let j = 0; j < D; j++) acc[j]! += data[base + t * D + j]!;
      for (let j = 0; j < D; j++) acc[j] = acc[j]! / Math.max(1, T - 1);
      out.push(l2normalize(acc));
    }
  }
  return out;
}
