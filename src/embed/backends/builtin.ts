/** `builtin`: the embedder of ../builtin.ts, pure TypeScript, no model file, no options. */
import { createBuiltinEmbedder } from '../builtin.js';
import { type EmbedderFactory, malformedEmbedderSpec, refuseVariant } from './factory.js';

export interface BuiltinSettings {
  kind: 'builtin';
}

export const builtinEmbedder: EmbedderFactory<BuiltinSettings> = {
  prefix: 'builtin',
  form: 'builtin',
  example: 'builtin',
  help: 'colour and edge statistics in pure TypeScript: no model, no download',
  threaded: false,
  parse(spec, options) {
    if (spec !== 'builtin') throw malformedEmbedderSpec(this, spec);
    refuseVariant(spec, options);
    return { kind: 'builtin' };
  },
  async open() {
    return createBuiltinEmbedder();
  },
};
