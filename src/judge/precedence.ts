/**
 * Where a judge's settings come from: flags > a JSON config file (--config) > the environment >
 * defaults. The API key and the claim lease have no flag (config > environment); the reply cap is
 * the config file's only. The judge spec may come from any of the three.
 */
import { BadInputError, messageOf, UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import { describeZodError } from '../store/jsonl.js';
import { readTextFile } from '../store/limits.js';
import { DEFAULT_CLAIM_LEASE_MS } from './cache.js';
import { DEFAULT_MAX_SIDE } from './images.js';
import { DEFAULT_MAX_RETRY_WAIT_MS } from './openai.js';
import { JUDGE_FORMS } from './registry.js';
import { DEFAULT_MAX_REPLY_BYTES } from './reply-limit.js';
import {
  type JudgeConfigFile,
  JudgeConfigFile as JudgeConfigSchema,
  type JudgeFlags,
  type JudgeSettings,
} from './settings.js';

export function readJudgeConfig(file: string): JudgeConfigFile {
  const text = readTextFile(file, { missing: 'no such config file' });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new BadInputError(`not valid JSON (${messageOf(e)})`, { file });
  }
  const r = JudgeConfigSchema.safeParse(json);
  if (!r.success) {
    // a misspelt key (`concurency`, `api-key`) is an error naming the key it was likely meant as
    const unknown = r.error.issues.find((i) => i.code === 'unrecognized_keys');
    if (unknown && 'keys' in unknown) {
      const key = (unknown.keys as string[])[0]!;
      throw new BadInputError(
        `unknown key "${key}"${didYouMean(key, Object.keys(JudgeConfigSchema.shape))}; the keys are ${Object.keys(JudgeConfigSchema.shape).join(', ')}`,
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

/** The settings from flags, a config file and the environment, each taken from the first that sets it. */
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
