/**
 * `onnx:PATH`: an image model exported to ONNX with its preprocessing in the JSON beside it, run
 * by ../onnx.ts. onnxruntime-node (and zod for the preprocessing) load only when one is opened:
 * a worker thread with the builtin embedder starts without them.
 */
import type { OnnxOptions } from '../onnx-options.js';
import { type EmbedderFactory, refuseVariant, restOf } from './factory.js';

export interface OnnxSettings {
  kind: 'onnx';
  path: string;
  options: OnnxOptions;
}

export const onnxEmbedder: EmbedderFactory<OnnxSettings> = {
  prefix: 'onnx',
  form: 'onnx:PATH',
  example: 'onnx:dinov2-small.onnx',
  help: 'an ONNX image model, its preprocessing in the JSON beside it',
  threaded: true,
  parse(spec, options) {
    const path = restOf(this, spec);
    refuseVariant(spec, options);
    return { kind: 'onnx', path, options };
  },
  async open(s) {
    const { loadOnnxEmbedder } = await import('../onnx.js');
    return loadOnnxEmbedder(s.path, s.options);
  },
};
