/**
 * Judges by name, and their settings. Specs:
 *   openai:MODEL@BASE_URL   MODEL is everything before the last "@" that is followed by http:// or
 *                           https://, so Ollama names such as qwen2.5vl:7b work; more endpoints of
 *                           the same model with a repeatable --judge-url
 *   local:READER.json       the embedded reader fitted by `hero fit-reader`
 * Settings come from flags > a JSON config file (--config) > the environment > defaults.
 */
import { z } from 'zod';
import { RateLimiter } from '../concurrency/rate.js';
import { BadInputError, messageOf, UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import type { OnProgress } from '../progress.js';
import { describeZodError } from '../store/jsonl.js';
import { readTextFile } from '../store/limits.js';
import { DEFAULT_CLAIM_LEASE_MS, JudgeCache } from './cache.js';
import { checkJudgeUrl, redactUrl } from './endpoints.js';
import { DEFAULT_MAX_SIDE, ImageEncoder } from './images.js';
import { DEFAULT_MAX_REPLY_BYTES, Judge } from './judge.js';
import { LocalBackend } from './local.js';
import { DEFAULT_MAX_RETRY_WAIT_MS, OpenAiBackend } from './openai.js';
import type { JudgeBackend } from './types.js';

export const JUDGE_FORMS = 'openai:MODEL@BASE_URL | local:READER.json';

export type JudgeSpec = { kind: 'openai'; model: string; url: string } | { kind: 'local'; path: string };

export function parseJudgeSpec(spec: string): JudgeSpec {
  if (spec.startsWith('local:') && spec.length > 6) return { kind: 'local', path: spec.slice(6) };
  if (spec.startsWith('openai:')) {
    const rest = spec.slice(7);
    const m = /^(.+)@(https?:\/\/\S+)$/.exec(rest);
    if (m?.[1] && m[2]) return { kind: 'openai', model: m[1], url: checkJudgeUrl(m[2], 'the --judge URL') };
  }
  throw new UsageError(
    `--judge must be ${JUDGE_FORMS} (e.g. openai:qwen2.5vl:7b@http://127.0.0.1:11434/v1), got "${redactUrl(spec)}"`,
  );
}

export const JudgeConfigFile = z.strictObject({
  judge: z.string().optional(),
  judge_urls: z.array(z.string()).optional(),
  concurrency: z.number().int().positive().optional(),
  rpm: z.number().positive().optional(),
  tpm: z.number().positive().optional(),
  timeout_s: z.number().positive().optional(),
  max_retries: z.number().int().min(0).optional(),
  /** The longest wait a server's Retry-After imposes, seconds (default 300). */
  max_retry_wait_s: z.number().min(0).optional(),
  max_side: z.number().int().positive().optional(),
  temperature: z.number().min(0).optional(),
  max_tokens: z.number().int().positive().optional(),
  /** Longest judge reply kept, bytes (default 1 MiB): a longer one is unresolved, with that reason. */
  max_reply_bytes: z.number().int().positive().optional(),
  cache: z.string().optional(),
  /** Lease of an in-flight claim in the cache, seconds (a dead process's questions wait this long). */
  claim_lease_s: z.number().positive().optional(),
  /** The API key (else KFBENCH_API_KEY or OPENAI_API_KEY); never logged or written. */
  api_key: z.string().optional(),
});
export type JudgeConfigFile = z.output<typeof JudgeConfigFile>;

export interface JudgeSettings {
  spec: string;
  extraUrls: string[];
  concurrency: number;
  /** Requests / tokens per minute for the whole process (none by default). */
  rpm: number | undefined;
  tpm: number | undefined;
  timeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  maxSide: number;
  temperature: number;
  maxTokens: number;
  maxReplyBytes: number;
  cache: string | undefined;
  /** Open the cache for reading only (a --dry-run): nothing is written, the file must exist. */
  cacheReadOnly?: boolean | undefined;
  claimLeaseMs: number;
  apiKey: string | undefined;
}

export interface JudgeFlags {
  judge?: string | undefined;
  judgeUrl?: string[] | undefined;
  config?: string | undefined;
  concurrency?: number | undefined;
  rpm?: number | undefined;
  tpm?: number | undefined;
  timeoutS?: number | undefined;
  maxRetries?: number | undefined;
  maxRetryWaitS?: number | undefined;
  maxSide?: number | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  cache?: string | undefined;
}

export function readJudgeConfig(file: string): JudgeConfigFile {
  const text = readTextFile(file, { missing: 'no such config file' });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new BadInputError(`not valid JSON (${messageOf(e)})`, { file });
  }
  const r = JudgeConfigFile.safeParse(json);
  if (!r.success) {
    // a misspelt key (`concurency`, `api-key`) is an error naming the key it was likely meant as
    const unknown = r.error.issues.find((i) => i.code === 'unrecognized_keys');
    if (unknown && 'keys' in unknown) {
      const key = (unknown.keys as string[])[0]!;
      throw new BadInputError(
        `unknown key "${key}"${didYouMean(key, Object.keys(JudgeConfigFile.shape))}; the keys are ${Object.keys(JudgeConfigFile.shape).join(', ')}`,
        { file },
      );
    }
    throw new BadInputError(describeZodError(r.error), { file });
  }
  return r.data;
}

function leaseFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const v = env.KFBENCH_CLAIM_LEASE_S;
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!(n > 0))
    throw new UsageError(`KFBENCH_CLAIM_LEASE_S must be a positive number of seconds, got "${v}"`);
  return n;
}

export function resolveJudgeSettings(flags: JudgeFlags, env: NodeJS.ProcessEnv = process.env): JudgeSettings {
  const cfg = flags.config ? readJudgeConfig(flags.config) : {};
  const spec = flags.judge ?? cfg.judge ?? env.KFBENCH_JUDGE;
  if (!spec)
    throw new UsageError(
      `no judge given: pass --judge ${JUDGE_FORMS} (or "judge" in --config, or KFBENCH_JUDGE)`,
    );
  const envUrls = env.KFBENCH_JUDGE_URLS?.split(',').filter(Boolean);
  return {
    spec,
    extraUrls: flags.judgeUrl?.length ? flags.judgeUrl : (cfg.judge_urls ?? envUrls ?? []),
    concurrency: flags.concurrency ?? cfg.concurrency ?? 16,
    rpm: flags.rpm ?? cfg.rpm,
    tpm: flags.tpm ?? cfg.tpm,
    timeoutMs: 1000 * (flags.timeoutS ?? cfg.timeout_s ?? 120),
    maxRetries: flags.maxRetries ?? cfg.max_retries ?? 6,
    maxRetryWaitMs:
      flags.maxRetryWaitS !== undefined || cfg.max_retry_wait_s !== undefined
        ? 1000 * (flags.maxRetryWaitS ?? cfg.max_retry_wait_s)!
        : DEFAULT_MAX_RETRY_WAIT_MS,
    maxSide: flags.maxSide ?? cfg.max_side ?? DEFAULT_MAX_SIDE,
    temperature: flags.temperature ?? cfg.temperature ?? 0,
    maxTokens: flags.maxTokens ?? cfg.max_tokens ?? 256,
    maxReplyBytes: cfg.max_reply_bytes ?? DEFAULT_MAX_REPLY_BYTES,
    cache: flags.cache ?? cfg.cache ?? env.KFBENCH_CACHE,
    claimLeaseMs: 1000 * (cfg.claim_lease_s ?? leaseFromEnv(env) ?? DEFAULT_CLAIM_LEASE_MS / 1000),
    apiKey: cfg.api_key || env.KFBENCH_API_KEY || env.OPENAI_API_KEY || undefined,
  };
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
  const spec = parseJudgeSpec(s.spec);
  let backend: JudgeBackend;
  if (spec.kind === 'local') backend = await LocalBackend.open(spec.path);
  else {
    for (const u of s.extraUrls) checkJudgeUrl(u, '--judge-url');
    backend = new OpenAiBackend({
      model: spec.model,
      baseUrls: [spec.url, ...s.extraUrls.filter((u) => u !== spec.url)],
      apiKey: s.apiKey,
      concurrency: s.concurrency,
      limiter: new RateLimiter({ rpm: s.rpm, tpm: s.tpm }),
      timeoutMs: s.timeoutMs,
      maxRetries: s.maxRetries,
      maxRetryWaitMs: s.maxRetryWaitMs,
      onProgress,
      ...timing,
    });
  }
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
