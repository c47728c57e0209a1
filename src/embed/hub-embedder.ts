/**
 * `hf:ORG/REPO[@REVISION]`: an image model from a hub repository (hub.ts fetches and caches it)
 * run by onnx.ts with the preprocessing of its own `preprocessor_config.json` (hub-preprocess.ts).
 * Its id names the repository and the variant (`hf:ORG/REPO#fp32`), its config the revision and
 * commit, so both enter every cache key and settings.json. Its spec pins the commit: a copy made
 * in a worker thread reads the same snapshot from the cache without a request.
 */

import { UsageError } from '../errors.js';
import type { Embedder, EmbedderHooks } from './embedder.js';
import { fetchHubModel, HUB_VARIANT_NAMES, type HubVariant } from './hub.js';
import { HUB_FEATURE_OUTPUTS, preprocessFromHubConfig } from './hub-preprocess.js';
import { parseHubRef } from './hub-ref.js';
import { loadOnnxEmbedder } from './onnx.js';
import type { OnnxOptions } from './onnx-options.js';

export async function loadHubEmbedder(
  name: string,
  opts: OnnxOptions = {},
  hooks: EmbedderHooks = {},
): Promise<Embedder> {
  const ref = parseHubRef(name);
  const variant: HubVariant = opts.variant ?? 'fp32';
  if (!HUB_VARIANT_NAMES.includes(variant))
    throw new UsageError(`--variant must be ${HUB_VARIANT_NAMES.join(' | ')}, got "${variant}"`);
  const files = await fetchHubModel(ref, variant, { onProgress: hooks.onProgress });
  return loadOnnxEmbedder(files.model, opts, {
    preprocess: preprocessFromHubConfig(files.preprocessor),
    file: files.preprocessor,
    outputs: HUB_FEATURE_OUTPUTS,
    id: `hf:${ref.repo}#${variant}`,
    spec: { name: `hf:${ref.repo}@${files.commit}`, options: structuredClone({ ...opts, variant }) },
    config: { hub: { repo: ref.repo, commit: files.commit, variant } },
  });
}
