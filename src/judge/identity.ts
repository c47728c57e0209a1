/**
 * The judge settings that change an answer — the reader's name (backend:model), the image size,
 * temperature and reply budget — recorded in each evaluation folder so a merge of shards can
 * refuse shards judged differently. Concurrency, rate limits, timeouts and the cache file do not
 * change an answer and are left out.
 */
import type { JudgeSettings } from './settings.js';

export interface JudgeIdentity {
  name: string;
  max_side: number;
  temperature: number;
  max_tokens: number;
}

export function judgeIdentity(
  name: string,
  s: Pick<JudgeSettings, 'maxSide' | 'temperature' | 'maxTokens'>,
): JudgeIdentity {
  return { name, max_side: s.maxSide, temperature: s.temperature, max_tokens: s.maxTokens };
}
