/**
 * insertIntoChain: where a candidate F goes in a chain of images ordered best first (any length n).
 * The result's position is the number of chain images F was placed above (0…n).
 *  - pairwise: F against each chain image under both placements; above only when confident;
 *  - listwise: one prompt with the ordered chain then the candidate, answering a position
 *    (reply {"position": 0-n, "reason": "…"}); unresolved → position 0. With `bothOrders` the
 *    question is asked a second time with the chain shown worst first (template
 *    `listwise-reversed`); the answer still counts the chain images F is better than, so it maps
 *    back to the bottom `position` images of the best-first chain. Both answers are kept; when they
 *    differ (or one is unresolved) the insertion is a disagreement, scored by `disagreement`:
 *    `error` (default) keeps only the images F was placed above in both answers (the smaller
 *    position; an unresolved answer counts as 0), like a pairwise self-contradiction that counts
 *    as a loss; `mean` averages the two positions (half credit where they differ);
 *  - binary: binary insertion by comparePair (≈ log2(n+1) comparisons), assuming the chain is
 *    consistent; an unresolved comparison counts as F not above.
 * `above[i]` says whether F ended above chain image i: direct for pairwise, implied by the
 * position for listwise and binary (F is above the bottom `position` images).
 */
import { z } from 'zod';
import { InternalError } from '../errors.js';
import { askAll, type Judge } from './judge.js';
import { answerSchema, BEATEN_POSITION, beatenOf, type ListwiseAnswerFormat } from './listwise-answer.js';
import { comparePair, type PairOutcome } from './pairwise.js';
import { loadTemplate, render, type Template } from './prompts.js';
import type { JudgeImage } from './types.js';

export type InsertionProtocol = 'pairwise' | 'listwise' | 'binary';
export const INSERTION_PROTOCOLS: InsertionProtocol[] = ['pairwise', 'listwise', 'binary'];
/** How a listwise disagreement between the two orders is scored (see the file comment). */
export type DisagreementRule = 'error' | 'mean';
export const DISAGREEMENT_RULES: DisagreementRule[] = ['error', 'mean'];
export type ChainOrder = 'best-first' | 'worst-first';

export interface InsertionSettings {
  /** Listwise only: ask again with the chain shown worst first. */
  bothOrders?: boolean;
  disagreement?: DisagreementRule;
  /**
   * Listwise, chain shown best first: the whole prompt's template instead of `listwise` (a benchmark's
   * own wording, e.g. HeroFrame's published prompt); `{{n}}` and `{{total}}` are filled here. Its
   * version goes into the cache key.
   */
  template?: Template | undefined;
  /**
   * With `template`: how its reply says where the candidate goes (judge/listwise-answer.ts; by
   * default `{"position": <chain images beaten>}`). The worst-first question keeps kfbench's own.
   */
  answer?: ListwiseAnswerFormat | undefined;
}

/** One listwise answer, in the order the chain was shown. */
interface ListwiseAnswer {
  order: ChainOrder;
  position: number | null;
  reason?: string;
  unresolved?: string;
  raw: string[];
}

export interface InsertionOutcome {
  protocol: InsertionProtocol;
  position: number;
  above: boolean[];
  /** Comparisons made (pairwise/binary), by chain index. */
  comparisons: { index: number; outcome: PairOutcome }[];
  /** Listwise: the position answered (the first answer), and every answer (two with both orders). */
  listwise?: { position: number | null; unresolved?: string; raw: string[]; answers: ListwiseAnswer[] };
  calls: number;
  cached: number;
  unresolved: number;
  /**
   * Self-consistency checks made and how many failed: one per comparison for pairwise/binary (the
   * two placements disagreed, or one was unresolved), one per insertion for listwise with both
   * orders; none for a single listwise question.
   */
  checks: number;
  disagreed: number;
}

/** The listwise answer for a chain of n images (one schema per n: zod compiles each schema it meets). */
const listwiseSchemas = new Map<number, ReturnType<typeof makeListwiseSchema>>();
const makeListwiseSchema = (n: number) =>
  z.object({ position: z.number().int().min(0).max(n), reason: z.string().optional() });
function listwiseSchema(n: number) {
  let s = listwiseSchemas.get(n);
  if (!s) {
    s = makeListwiseSchema(n);
    listwiseSchemas.set(n, s);
  }
  return s;
}

function listwiseTemplate(order: ChainOrder, template?: Template): Template {
  return order === 'best-first' && template
    ? template
    : loadTemplate(order === 'best-first' ? 'listwise' : 'listwise-reversed');
}

/** The listwise prompt's text for a chain of n images shown in `order` (`template`: see InsertionSettings). */
export function listwisePrompt(
  n: number,
  instructions: string,
  order: ChainOrder = 'best-first',
  template?: Template,
): string {
  return render(listwiseTemplate(order, template), { instructions, n, total: n + 1 });
}

/** The answer format of the question shown in `order`: the template's (best first), else kfbench's own. */
function formatOf(
  order: ChainOrder,
  template?: Template,
  answer?: ListwiseAnswerFormat,
): ListwiseAnswerFormat {
  return order === 'best-first' && template && answer ? answer : BEATEN_POSITION;
}

const isBeatenPosition = (f: ListwiseAnswerFormat) => f.kind === 'beaten' && f.field === 'position';

/** The listwise question for a candidate and a chain (given best first; shown in `order`). */
export function listwiseQuestion(
  candidate: JudgeImage,
  chain: readonly JudgeImage[],
  instructions: string,
  order: ChainOrder = 'best-first',
  template?: Template,
  answer?: ListwiseAnswerFormat,
) {
  const n = chain.length;
  const t = listwiseTemplate(order, template);
  const f = formatOf(order, template, answer);
  return {
    prompt: render(t, { instructions, n, total: n + 1 }),
    images: [...(order === 'best-first' ? chain : [...chain].reverse()), candidate],
    labels: Array.from({ length: n + 1 }, (_, i) => String(i + 1)),
    protocol: { name: 'listwise', version: t.version },
    // kfbench's own answer keeps its strict schema (an out-of-range position is asked once more)
    schema: isBeatenPosition(f) ? listwiseSchema(n) : answerSchema(f),
  };
}

/** One reply read by its format into the chain images beaten (or why it cannot be). */
function readAnswer(
  v: { answer?: Record<string, unknown> | undefined; unresolved?: string | undefined; raw: string[] },
  order: ChainOrder,
  f: ListwiseAnswerFormat,
  n: number,
): ListwiseAnswer {
  const base = { order, raw: v.raw };
  if (!v.answer) return { ...base, position: null, ...(v.unresolved ? { unresolved: v.unresolved } : {}) };
  const reason = typeof v.answer.reason === 'string' && v.answer.reason ? { reason: v.answer.reason } : {};
  const r = beatenOf(f, v.answer[f.field], n);
  return 'position' in r
    ? { ...base, position: r.position, ...reason }
    : { ...base, position: null, unresolved: r.unresolved, ...reason };
}

export async function insertIntoChain(
  judge: Judge,
  candidate: JudgeImage,
  chain: readonly JudgeImage[],
  instructions: string,
  protocol: InsertionProtocol = 'listwise',
  settings: InsertionSettings = {},
): Promise<InsertionOutcome> {
  const n = chain.length;
  if (n === 0) throw new InternalError('a chain needs at least one image');
  if (protocol === 'listwise') {
    const orders: ChainOrder[] = settings.bothOrders ? ['best-first', 'worst-first'] : ['best-first'];
    const vs = await askAll(
      judge,
      orders.map((order) =>
        listwiseQuestion(candidate, chain, instructions, order, settings.template, settings.answer),
      ),
    );
    const answers: ListwiseAnswer[] = vs.map((v, k) =>
      readAnswer(
        v as { answer?: Record<string, unknown>; unresolved?: string; raw: string[] },
        orders[k]!,
        formatOf(orders[k]!, settings.template, settings.answer),
        n,
      ),
    );
    const ps = answers.map((a) => a.position ?? 0);
    // symmetric in the two orders: an unresolved answer on either side, or two different positions
    const disagreed =
      answers.length === 2 && answers.some((a) => a.position === null || a.position !== answers[0]!.position)
        ? 1
        : 0;
    const position =
      (settings.disagreement ?? 'error') === 'mean'
        ? ps.reduce((a, b) => a + b, 0) / ps.length
        : Math.min(...ps);
    const first = answers[0]!;
    return {
      protocol,
      position,
      above: chain.map((_, i) => i >= n - Math.floor(position)),
      comparisons: [],
      listwise: {
        position: first.position,
        ...(first.unresolved ? { unresolved: first.unresolved } : {}),
        raw: first.raw,
        answers,
      },
      calls: vs.reduce((a, v) => a + v.calls, 0),
      cached: vs.filter((v) => v.cached).length,
      unresolved: answers.filter((a) => a.unresolved).length,
      checks: answers.length === 2 ? 1 : 0,
      disagreed,
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

function totals(cs: { outcome: PairOutcome }[]): {
  calls: number;
  cached: number;
  unresolved: number;
  checks: number;
  disagreed: number;
} {
  const unresolved = cs.filter((c) => c.outcome.status === 'unresolved').length;
  return {
    calls: cs.reduce((a, c) => a + c.outcome.calls, 0),
    cached: cs.reduce((a, c) => a + c.outcome.cached, 0),
    unresolved,
    checks: cs.length,
    disagreed: unresolved,
  };
}
