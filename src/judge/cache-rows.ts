/**
 * The rows of a judge cache file as kfbench reads them: the columns every statement of cache.ts
 * reads or writes (a file lacking one is refused up front), and a stored row decoded into an
 * answer — a damaged answer column is bad input naming the file and the key, not a bare
 * SyntaxError (issue 46 item 11).
 */
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import type { Usage } from './types.js';

/** One cached judge answer as the cache returns it. */
export interface CachedAnswer {
  answer: unknown | null;
  unresolved: string | null;
  raw: string[];
  usage: Usage;
  latency_ms: number;
}

/** The columns of `judge_answers` and `judge_claims` every statement of cache.ts reads or writes. */
export const ANSWER_COLUMNS = [
  'key',
  'backend',
  'model',
  'protocol',
  'answer',
  'unresolved',
  'raw',
  'prompt_tokens',
  'completion_tokens',
  'latency_ms',
  'created',
];
export const CLAIM_COLUMNS = ['key', 'owner', 'expires'];

/** The raw replies column: the reply texts as JSON. */
const RawReplies = z.array(z.string());

/** A stored answer column, parsed: a damaged one is bad input naming the file and the row's key. */
function answerOf(r: Record<string, unknown>, path: string): unknown {
  if (r.answer === null) return null;
  try {
    return JSON.parse(String(r.answer));
  } catch {
    throw new BadInputError(
      `the answer of key ${String(r.key)} is not JSON (the row is damaged; give another cache file)`,
      { file: path },
    );
  }
}

/** The raw replies column as JSON; damaged, it reads as none (it is kept for reading only). */
function rawOf(r: Record<string, unknown>): unknown {
  try {
    return JSON.parse(String(r.raw));
  } catch {
    return undefined;
  }
}

export function toAnswer(r: Record<string, unknown>, path: string): CachedAnswer {
  return {
    answer: answerOf(r, path),
    unresolved: r.unresolved === null ? null : String(r.unresolved),
    // kept for reading only (never scored): a raw column that is not a list of texts reads as none
    raw: RawReplies.safeParse(rawOf(r)).data ?? [],
    usage: { prompt_tokens: Number(r.prompt_tokens), completion_tokens: Number(r.completion_tokens) },
    latency_ms: Number(r.latency_ms),
  };
}
