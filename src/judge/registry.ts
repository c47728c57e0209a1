/**
 * The judges by name: a `--judge` spec is `PREFIX:REST`, and PREFIX picks a backend of the list
 * below (one file each in backends/, with its form and parser). Settings and where they come from
 * are settings.ts and precedence.ts.
 */
import { UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import type { OnProgress } from '../progress.js';
import type { JudgeBackendFactory } from './backends/factory.js';
import { type LocalSpec, localJudge } from './backends/local.js';
import { type OpenAiSpec, openaiJudge } from './backends/openai.js';
import { JudgeCache } from './cache.js';
import { redactUrl } from './endpoints.js';
import { ImageEncoder } from './images.js';
import { Judge } from './judge.js';
import type { JudgeSettings } from './settings.js';

// the compass run names the settings' type from here (until its files move; issue 58 item 3)

export type JudgeSpec = OpenAiSpec | LocalSpec;

/** Every judge backend, in the order the help names them. */
export const JUDGE_BACKENDS: readonly JudgeBackendFactory<JudgeSpec>[] = [openaiJudge, localJudge];

export const JUDGE_FORMS = JUDGE_BACKENDS.map((b) => b.form).join(' | ');

/** The backend a spec's prefix names; an unknown prefix is a UsageError naming the known ones. */
export function judgeBackendFor(spec: string): JudgeBackendFactory<JudgeSpec> {
  const colon = spec.indexOf(':');
  const prefix = colon < 0 ? spec : spec.slice(0, colon);
  const backend = JUDGE_BACKENDS.find((b) => b.prefix === prefix);
  if (backend) return backend;
  const prefixes = JUDGE_BACKENDS.map((b) => b.prefix);
  throw new UsageError(
    `--judge must be ${JUDGE_FORMS} (e.g. ${JUDGE_BACKENDS[0]!.example}), got "${redactUrl(spec)}": ` +
      `the backends are ${prefixes.join(', ')}, not "${redactUrl(prefix)}"${didYouMean(prefix, prefixes)}`,
  );
}

export function parseJudgeSpec(spec: string): JudgeSpec {
  return judgeBackendFor(spec).parse(spec);
}

export interface OpenedJudge {
  judge: Judge;
  encoder: ImageEncoder;
  cache: JudgeCache | undefined;
  close(): Promise<void>;
}

/** Open a judge with its cache and image encoder (`signal`: Ctrl-C). Test hooks may tune the retry timing. */
export async function openJudge(
  s: JudgeSettings,
  tuning: {
    backoffBaseMs?: number;
    restMs?: number;
    signal?: AbortSignal | undefined;
    /** The progress stream: the judge's calls in flight and done, and their retries (JUDGE_CALLS). */
    onProgress?: OnProgress | undefined;
  } = {},
): Promise<OpenedJudge> {
  const { signal, onProgress, ...timing } = tuning;
  const factory = judgeBackendFor(s.spec);
  const backend = await factory.open(factory.parse(s.spec), { settings: s, onProgress, ...timing });
  const cache = s.cache
    ? new JudgeCache(s.cache, { leaseMs: s.claimLeaseMs, readOnly: s.cacheReadOnly === true })
    : undefined;
  const judge = new Judge(backend, {
    cache,
    sampling: { temperature: s.temperature, max_tokens: s.maxTokens },
    maxReplyBytes: s.maxReplyBytes,
    signal,
    onProgress,
  });
  return {
    judge,
    encoder: new ImageEncoder(s.maxSide, undefined, cache),
    cache,
    async close() {
      await judge.close();
      cache?.close();
    },
  };
}
