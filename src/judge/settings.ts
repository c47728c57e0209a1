/**
 * A judge's settings: the flags that set them, the JSON config file (--config) and the settings
 * themselves. Where each comes from (flags > config file > environment > defaults) is
 * precedence.ts; the backend a spec names, and how it is opened, is the registry's (registry.ts).
 */
import { z } from 'zod';
import type { HttpJudgeSettings } from './backends/factory.js';

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

/**
 * A judge's settings: its spec, what every backend's judge shares (image size, sampling, reply
 * cap, cache), and the settings of the HTTP backends (backends/factory.ts), which a backend with
 * no wire ignores.
 */
export interface JudgeSettings extends HttpJudgeSettings {
  spec: string;
  maxSide: number;
  temperature: number;
  maxTokens: number;
  maxReplyBytes: number;
  cache: string | undefined;
  /** Open the cache for reading only (a --dry-run): nothing is written, the file must exist. */
  cacheReadOnly?: boolean | undefined;
  claimLeaseMs: number;
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
