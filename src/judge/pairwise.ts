/**
 * comparePair: one comparison asked under both placements (A first, then B first). Confident
 * when both placements pick the same image; otherwise unresolved (counted as an error by callers).
 * Reply contract: {"winner": "A" | "B", "reason": "…"}, A = the first image shown. With `relabel`
 * the letters are swapped between the two images (B = the first image shown, template
 * `pairwise-relabelled`): the same comparison asked as a different question, e.g. to re-judge a
 * pair for stability without the answer being a copy of the first one; `seed` asks with that
 * sampling seed (for backends that take one).
 */
import { z } from 'zod';
import { askAll, type Judge } from './judge.js';
import { loadTemplate, render } from './prompts.js';
import type { JudgeImage, Verdict } from './types.js';

export const PairAnswer = z.object({ winner: z.enum(['A', 'B']), reason: z.string().optional() });
type PairAnswer = z.output<typeof PairAnswer>;

export interface PlacementVerdict {
  placement: 'first-shown-first' | 'second-shown-first';
  /** Winner in this placement's own labels. */
  winner: 'A' | 'B' | null;
  reason?: string;
  unresolved?: string;
  raw: string[];
  cached: boolean;
}

export interface PairOutcome {
  /** 'A' = the first argument, 'B' = the second, null when unresolved. */
  winner: 'A' | 'B' | null;
  status: 'confident' | 'unresolved';
  verdicts: [PlacementVerdict, PlacementVerdict];
  /** Answers obtained over the network (re-asks included). */
  calls: number;
  /** Answers served from the cache. */
  cached: number;
}

/** The two questions of a comparison (A first, then B first), e.g. to check the cache without asking. */
export function pairQuestions(
  a: JudgeImage,
  b: JudgeImage,
  instructions: string,
  relabel = false,
  seed?: number,
) {
  const t = loadTemplate(relabel ? 'pairwise-relabelled' : 'pairwise');
  const prompt = render(t, { instructions });
  const q = (x: JudgeImage, y: JudgeImage) => ({
    prompt,
    images: [x, y],
    labels: relabel ? ['B', 'A'] : ['A', 'B'],
    protocol: { name: 'pairwise', version: t.version },
    schema: PairAnswer,
    ...(seed === undefined ? {} : { seed }),
  });
  return [q(a, b), q(b, a)] as const;
}

export async function comparePair(
  judge: Judge,
  a: JudgeImage,
  b: JudgeImage,
  instructions: string,
  opts: { relabel?: boolean; seed?: number } = {},
): Promise<PairOutcome> {
  const relabel = !!opts.relabel;
  const [q1, q2] = pairQuestions(a, b, instructions, relabel, opts.seed);
  const [v1, v2] = (await askAll(judge, [q1, q2])) as [Verdict<PairAnswer>, Verdict<PairAnswer>];
  const pv = (v: typeof v1, placement: PlacementVerdict['placement']): PlacementVerdict => ({
    placement,
    winner: v.answer?.winner ?? null,
    ...(v.answer?.reason ? { reason: v.answer.reason } : {}),
    ...(v.unresolved ? { unresolved: v.unresolved } : {}),
    raw: v.raw,
    cached: v.cached,
  });
  // map each placement's winner back to the arguments (the first image shown carries `first`)
  const first = relabel ? 'B' : 'A';
  const w1 = v1.answer ? (v1.answer.winner === first ? 'A' : 'B') : null;
  const w2 = v2.answer ? (v2.answer.winner === first ? 'B' : 'A') : null;
  const confident = w1 !== null && w1 === w2;
  return {
    winner: confident ? w1 : null,
    status: confident ? 'confident' : 'unresolved',
    verdicts: [pv(v1, 'first-shown-first'), pv(v2, 'second-shown-first')],
    calls: v1.calls + v2.calls,
    cached: (v1.cached ? 1 : 0) + (v2.cached ? 1 : 0),
  };
}
