/** Embedders by name: `builtin`, `onnx:PATH`, `hf:ORG/REPO[@REVISION]` or an alias of a hub model. */
import { availableParallelism } from 'node:os';
import { UsageError } from '../errors.js';
import { createBuiltinEmbedder } from './builtin.js';
import type { Embedder, EmbedderHooks, EmbedderSpec } from './embedder.js';
import type { OnnxOptions } from './onnx.js';

/**
 * Short names of hub models. `dinov3-small` is the ViT-S/16 DINOv3 (the smallest ViT,
 * 21 M parameters, LVD-1689M pretraining) in onnx-community's ONNX export: KeyFrame-Compass
 * names "DINOv3 features" but no size, so the small one is our choice, not the paper's.
 */
export const EMBEDDER_ALIASES: Readonly<Record<string, string>> = {
  'dinov3-small': 'hf:onnx-community/dinov3-vits16-pretrain-lvd1689m-ONNX',
};

export const EMBEDDER_FORMS = 'builtin | onnx:PATH | hf:ORG/REPO[@REVISION] | dinov3-small';

/** What a caller may hand an embedder's making besides its spec: where download progress goes. */
export type { EmbedderHooks } from './embedder.js';

export async function createEmbedder(
  spec: string,
  opts: OnnxOptions = {},
  hooks: EmbedderHooks = {},
): Promise<Embedder> {
  const name = EMBEDDER_ALIASES[spec] ?? spec;
  if (opts.variant !== undefined && !name.startsWith('hf:'))
    throw new UsageError(`--variant applies to a hub model (hf:ORG/REPO, dinov3-small), not to "${spec}"`);
  if (name === 'builtin') return createBuiltinEmbedder();
  if (name.startsWith('onnx:') && name.length > 5) {
    // onnxruntime-node (and zod for its preprocessing) load only when an ONNX model is asked for:
    // a worker thread with the builtin embedder starts without them
    const { loadOnnxEmbedder } = await import('./onnx.js');
    return loadOnnxEmbedder(name.slice(5), opts);
  }
  if (name.startsWith('hf:') && name.length > 3) {
    const { loadHubEmbedder } = await import('./hub-embedder.js');
    return loadHubEmbedder(name.slice(3), opts, hooks);
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
  const onnx = spec.name.startsWith('onnx:') || spec.name.startsWith('hf:');
  if (!onnx || spec.options?.threads !== undefined) return spec;
  return {
    ...spec,
    options: { ...spec.options, threads: Math.max(1, Math.floor(cores / Math.max(1, copies))) },
  };
}
