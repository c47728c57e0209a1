/**
 * What an embedder is to the registry (registry.ts): a prefix of the `--embedder` spec, its form
 * and an example for the help, `parse` turning a spec and the ONNX options into the embedder's own
 * typed settings (or a UsageError naming the spec), and `open` making the embedder from them. One
 * file per embedder beside this one; the registry is the list of them. A factory loads its
 * runtime (onnxruntime-node, the hub's client) only in `open`: parsing a spec loads nothing heavy.
 */
import { UsageError } from '../../errors.js';
import type { Embedder, EmbedderHooks } from '../embedder.js';
import type { OnnxOptions } from '../onnx-options.js';

export interface EmbedderFactory<S extends { kind: string } = { kind: string }> {
  /** The spec's prefix before its first ":" (`onnx`), or the whole spec (`builtin`); `kind` of the settings. */
  readonly prefix: S['kind'];
  /** The spec's form, e.g. `onnx:PATH`. */
  readonly form: string;
  /** A spec of that form, for the help and the errors. */
  readonly example: string;
  /** One line on what the embedder is. */
  readonly help: string;
  /** Whether it runs an ONNX session whose threads copies running at once share (`shareSpec`). */
  readonly threaded: boolean;
  /** `spec` (prefix included) → the embedder's settings; a malformed spec is a UsageError naming it. */
  parse(spec: string, options: OnnxOptions): S;
  open(settings: S, hooks: EmbedderHooks): Promise<Embedder>;
}

/** The error of a spec with a known prefix but a malformed rest. */
export function malformedEmbedderSpec(f: { form: string; example: string }, spec: string): UsageError {
  return new UsageError(`--embedder must be ${f.form} (e.g. ${f.example}), got "${spec}"`);
}

/** `--variant` names a hub model's file: any other embedder refuses it. */
export function refuseVariant(spec: string, options: OnnxOptions): void {
  if (options.variant !== undefined)
    throw new UsageError(`--variant applies to a hub model (hf:ORG/REPO, dinov3-small), not to "${spec}"`);
}

/** The rest of `spec` after `PREFIX:`, or a malformed-spec error when there is none. */
export function restOf(f: { prefix: string; form: string; example: string }, spec: string): string {
  const rest = spec.slice(f.prefix.length + 1);
  if (spec.slice(0, f.prefix.length + 1) !== `${f.prefix}:` || rest === '')
    throw malformedEmbedderSpec(f, spec);
  return rest;
}
