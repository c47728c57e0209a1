/**
 * What a judge backend is to the registry (registry.ts): a prefix of the `--judge` spec, its form
 * and an example for the help, `parse` turning a spec into the backend's own typed settings (or a
 * UsageError naming the spec), and `open` making the backend from those settings and the run's.
 * One file per backend beside this one; the registry is the list of them.
 */
import { UsageError } from '../../errors.js';
import type { OnProgress } from '../../progress.js';
import { redactUrl } from '../endpoints.js';
import type { JudgeBackend } from '../types.js';

/**
 * The settings an HTTP backend (`openai`) reads besides its spec: more endpoints, the key, the
 * concurrency, rate limits, the timeout and retries. A backend with no wire (`local`) ignores them.
 */
export interface HttpJudgeSettings {
  extraUrls: string[];
  concurrency: number;
  /** Requests / tokens per minute for the whole process (none by default). */
  rpm: number | undefined;
  tpm: number | undefined;
  timeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  apiKey: string | undefined;
}

/** What `open` gets besides the backend's own settings. */
interface JudgeOpenEnv {
  settings: HttpJudgeSettings;
  /** The progress stream: the judge's calls in flight and done, and their retries (JUDGE_CALLS). */
  onProgress?: OnProgress | undefined;
  /** Test hooks: the retry timing. */
  backoffBaseMs?: number;
  restMs?: number;
}

export interface JudgeBackendFactory<S extends { kind: string } = { kind: string }> {
  /** The spec's prefix before its first ":" (`openai`), and `kind` of what `parse` returns. */
  readonly prefix: S['kind'];
  /** The spec's form, e.g. `openai:MODEL@BASE_URL`. */
  readonly form: string;
  /** A valid spec, for the help and the errors. */
  readonly example: string;
  /** One line on what the backend is. */
  readonly help: string;
  /** `spec` (prefix included) → the backend's settings; a malformed spec is a UsageError naming it. */
  parse(spec: string): S;
  open(settings: S, env: JudgeOpenEnv): Promise<JudgeBackend>;
}

/** The error of a spec with a known prefix but a malformed rest. */
export function malformedJudgeSpec(f: { form: string; example: string }, spec: string): UsageError {
  return new UsageError(`--judge must be ${f.form} (e.g. ${f.example}), got "${redactUrl(spec)}"`);
}

/** The rest of `spec` after `PREFIX:`, or a malformed-spec error when there is none. */
export function restOfJudgeSpec(f: { prefix: string; form: string; example: string }, spec: string): string {
  const rest = spec.slice(f.prefix.length + 1);
  if (spec.slice(0, f.prefix.length + 1) !== `${f.prefix}:` || rest === '') throw malformedJudgeSpec(f, spec);
  return rest;
}
