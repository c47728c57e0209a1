/**
 * `hf:ORG/REPO[@REVISION]`: an image model from a hub repository, fetched and cached by ../hub.ts
 * and run by ../onnx.ts (../hub-embedder.ts); both load only when one is opened.
 */
import { parseHubRef } from '../hub-ref.js';
import type { OnnxOptions } from '../onnx-options.js';
import { type EmbedderFactory, restOf } from './factory.js';

export interface HubSettings {
  kind: 'hf';
  /** `ORG/REPO[@REVISION]`, checked. */
  name: string;
  options: OnnxOptions;
}

export const hubEmbedder: EmbedderFactory<HubSettings> = {
  prefix: 'hf',
  form: 'hf:ORG/REPO[@REVISION]',
  example: 'hf:onnx-community/dinov3-vits16-pretrain-lvd1689m-ONNX',
  help: 'an ONNX image model from a hub repository (HF_ENDPOINT, HF_HOME), downloaded once',
  threaded: true,
  parse(spec, options) {
    const name = restOf(this, spec);
    parseHubRef(name);
    return { kind: 'hf', name, options };
  },
  async open(s, hooks) {
    const { loadHubEmbedder } = await import('../hub-embedder.js');
    return loadHubEmbedder(s.name, s.options, hooks);
  },
};
