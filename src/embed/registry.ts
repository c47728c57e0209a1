/**
 * Embedders by name: an `--embedder` spec is `PREFIX:REST` (or a bare `builtin`), and PREFIX picks
 * an embedder of the list below (one file each in backends/, with its form and parser); an alias
 * names a hub model.
 */
import { availableParallelism } from 'node:os';
import { UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import { type BuiltinSettings, builtinEmbedder } from './backends/builtin.js';
import type { EmbedderFactory } from './backends/factory.js';
import { type HubSettings, hubEmbedder } from './backends/hf.js';
import { type OnnxSettings, onnxEmbedder } from './backends/onnx.js';
import type { Embedder, EmbedderHooks, EmbedderSpec } from './embedder.js';
import type { OnnxOptions } from './onnx-options.js';

export type EmbedderSettings = BuiltinSettings | OnnxSettings | HubSettings;

/** Every embedder, in the order the help names them. */
export const EMBEDDERS: readonly EmbedderFactory<EmbedderSettings>[] = [
  builtinEmbedder,
  onnxEmbedder,
  hubEmbedder,
];

/**
 * Short names of hub models. `dinov3-small` is the ViT-S/16 DINOv3 (the smallest ViT,
 * 21 M parameters, LVD-1689M pretraining) in onnx-community's ONNX export: KeyFrame-Compass
 * names "DINOv3 features" but no size, so the small one is our choice, not the paper's.
 */
export const EMBEDDER_ALIASES: Readonly<Record<string, string>> = {
  'dinov3-small': 'hf:onnx-community/dinov3-vits16-pretrain-lvd1689m-ONNX',
};

export const EMBEDDER_FORMS = [...EMBEDDERS.map((e) => e.form), ...Object.keys(EMBEDDER_ALIASES)].join(' | ');

/** What a caller may hand an embedder's making besides its spec: where download progress goes. */

const prefixOf = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(0, colon);
};

/** The embedder a spec (an alias resolved) names; an unknown prefix is a UsageError naming the known ones. */
export function embedderFor(spec: string): EmbedderFactory<EmbedderSettings> {
  const prefix = prefixOf(EMBEDDER_ALIASES[spec] ?? spec);
  const factory = EMBEDDERS.find((e) => e.prefix === prefix);
  if (factory) return factory;
  const known = [...EMBEDDERS.map((e) => e.prefix), ...Object.keys(EMBEDDER_ALIASES)];
  throw new UsageError(
    `--embedder must be ${EMBEDDER_FORMS}, got "${spec}": the embedders are ${known.join(', ')}, not "${prefix}"${didYouMean(prefix, known)}`,
  );
}

/** A spec and its ONNX options → the embedder's own settings (`EmbedderSettings`), or a UsageError naming the spec. */
export function parseEmbedderSpec(spec: string, opts: OnnxOptions = {}): EmbedderSettings {
  return embedderFor(spec).parse(EMBEDDER_ALIASES[spec] ?? spec, opts);
}

export async function createEmbedder(
  spec: string,
  opts: OnnxOptions = {},
  hooks: EmbedderHooks = {},
): Promise<Embedder> {
  const factory = embedderFor(spec);
  return factory.open(factory.parse(EMBEDDER_ALIASES[spec] ?? spec, opts), hooks);
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
  const threaded = EMBEDDERS.find((e) => e.prefix === prefixOf(spec.name))?.threaded === true;
  if (!threaded || spec.options?.threads !== undefined) return spec;
  return {
    ...spec,
    options: { ...spec.options, threads: Math.max(1, Math.floor(cores / Math.max(1, copies))) },
  };
}
