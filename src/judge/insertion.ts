/**
 * insertIntoChain: where a candidate F goes in a chain of images ordered best first (any length n).
 * The result's position is the number of chain images F was placed above (0…n).
 *  - pairwise: F against each chain image under both placements; above only when confident;
 *  - listwise: one prompt with the ordered chain then the candidate, answering a position
 *    (reply {"position": 0-n, "reason": "…"}); unresolved → position 0;
 *  - binary: binary insertion by comparePair (≈ log2(n+1) comparisons), assuming the chain is
 *    consistent; an unresolved comparison counts as F not above.
 * `above[i]` says whether F ended above chain image i: direct for pairwise, implied by the
 * position for listwise and binary (F is above the bottom `position` images).
 */
import { z } from 'zod';
import type { Judge } from './judge.js';
import { comparePair, type PairOutcome } from './pairwise.js';
import { loadTemplate, render } from './prompts.js';
import type { JudgeImage } from './types.js';

export type InsertionProtocol = 'pairwise' | 'listwise' | 'binary';
export const INSERTION_PROTOCOLS: InsertionProtocol[] = ['pairwise', 'listwise', 'binary'];

export interface InsertionOutcome {
  protocol: InsertionProtocol;
  position: number;
  above: boolean[];
  /** Comparisons made (pairwise/binary), by chain index. */
  comparisons: { index: number; outcome: PairOutcome }[];
  listwise?: { position: number | null; unresolved?: string; raw: string[] };
  calls: number;
  cached: number;
  unresolved: number;
}

/** The listwise question for a candidate and a chain (best first). */
export function listwiseQuestion(candidate: JudgeImage, chain: readonly JudgeImage[], instructions: string) {
  const n = chain.length;
  const t = loadTemplate('listwise');
  return {
    prompt: render(t, { instructions, n, total: n + 1 }),
    images: [...chain, candidate],
    labels: Array.from({ length: n + 1 }, (_, i) => String(i + 1)),
    protocol: { name: 'listwise', version: t.version },
    schema: z.object({ position: z.number().int().min(0).max(n), reason: z.string().optional() }),
  };
}

export async function insertIntoChain(
  judge: Judge,
  candidate: JudgeImage,
  chain: readonly JudgeImage[],
  instructions: string,
  protocol: InsertionProtocol = 'pairwise',
): Promise<InsertionOutcome> {
  const n = chain.length;
  if (n === 0) throw new Error('a chain needs at least one image');
  if (protocol === 'listwise') {
    const v = await judge.ask(listwiseQuestion(candidate, chain, instructions));
    const position = v.answer?.position ?? 0;
    return {
      protocol,
      position,
      above: chain.map((_, i) => i >= n - position),
      comparisons: [],
      listwise: {
        position: v.answer?.position ?? null,
        ...(v.unresolved ? { unresolved: v.unresolved } : {}),
        raw: v.raw,
      },
      calls: v.calls,
      cached: v.cached ? 1 : 0,
      unresolved: v.unresolved ? 1 : 0,
    };
  }
  const comparisons: { index: number; outcome: PairOutcome }[] = [];
  const beats = (o: PairOutcome) => o.status === 'confident' && o.winner === 'A';
  if (protocol === 'pairwise') {
    const outs = await Promise.all(chain.map((c) => comparePair(judge, candidate, c, instructions)));
    for (const [index, outcome] of outs.entries()) comparisons.push({ index, outcome });
    const above = outs.map(beats);
    return { protocol, position: above.filter(Boolean).length, above, comparisons, ...totals(comparisons) };
  }
  // binary: the first chain index F beats, assuming F beats everything below it
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const outcome = await comparePair(judge, candidate, chain[mid]!, instructions);
    comparisons.push({ index: mid, outcome });
    if (beats(outcome)) hi = mid;
    else lo = mid + 1;
  }
  const position = n - lo;
  return { protocol, position, above: chain.map((_, i) => i >= lo), comparisons, ...totals(comparisons) };
}

function totals(cs: { outcome: PairOutcome }[]): { calls: number; cached: number; unresolved: number } {
  return {
    calls: cs.reduce((a, c) => a + c.outcome.calls, 0),
    cached: cs.reduce((a, c) => a + c.outcome.cached, 0),
    unresolved: cs.filter((c) => c.outcome.status === 'unresolved').length,
  };
}
