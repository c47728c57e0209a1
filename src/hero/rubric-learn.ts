/**
 * Rubric learning (SPEC §2.5 step 5) for one film, in rounds (stop early when a round admits
 * nothing; at most `maxRules` rules). Each round builds the film's chains with the current rubric
 * (steps 2–4), then asks the judge, for every unresolved pair and a seeded sample of two confident
 * pairs per chain, for one guideline that decides the pair and its reversal
 * (`{"guideline": "…", "reversed": "…"}`). A proposal enters the rubric only if it passes:
 *  - gate 1 (reverse flip): with the guideline appended the pair comes out confident one way, and
 *    with the reversal appended confident the other way;
 *  - gate 2 (non-disturbance): with the guideline appended, every confident pair of the film's most
 *    dissimilar chain (furthest apart on average in embedder space, recomputed each round) other
 *    than the source pair keeps its outcome (turning unresolved counts as a change). The outcomes
 *    compared against are those as they stand when the proposal is tested: after a rule is
 *    admitted inside a round, that chain's pairs are judged again under the grown rubric, so a
 *    later proposal is not blamed for what an earlier admission changed.
 * Every proposal is logged with the gate that rejected it. Each rule records the chain it came
 * from (`source_chain`) and that chain's publicity still when it was learned (`source_anchor`).
 * Phase B (step 6) is the caller's (`phaseBFinal`): a rule is pruned when its source anchor was
 * deleted by a floor step in that chain of the *final* build, whichever pair it came from —
 * HeroFrame-Bench card: "They appear under pruned_by_phase_b because their source anchor was
 * deleted." A still deleted in an earlier round that is back in the final chain prunes nothing.
 */
import { z } from 'zod';
import type { Embedder } from '../embed/embedder.js';
import { cosine } from '../embed/embedder.js';
import { InternalError } from '../errors.js';
import type { Judge } from '../judge/judge.js';
import { comparePair } from '../judge/pairwise.js';
import { loadTemplate, render } from '../judge/prompts.js';
import type { JudgeImage } from '../judge/types.js';
import { decodeImage } from '../media/image.js';
import { createRng, type Rng, shuffled } from '../stats/rng.js';
import type { Criterion, ProposalOutcome, RoundReport, RubricProposal } from './dataset/schemas.js';

export type { Criterion, RoundReport };
/** A proposal as logged before the caller adds the film (a stats/rubric_proposals.jsonl row). */
export type ProposalLog = Omit<RubricProposal, 'movie_id'>;

const Proposal = z.object({
  guideline: z.string().min(1).max(400),
  reversed: z.string().min(1).max(400),
});

/** What the learner needs of one round's build. */
export interface RoundBuild {
  chains: {
    chain_id: string;
    pairs: { a: string; b: string; winner: string | null; status: 'confident' | 'unresolved' }[];
  }[];
  /** Each chain's members; `source: 'still'` marks the chain's anchor (its publicity still). */
  members: { id: string; image: JudgeImage; bytes: Buffer; source?: 'still' | 'sampled' }[][];
  /** Stills the floor deleted, by chain id (Phase B reads only the final build's: `phaseBFinal`). */
  deletedIn: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface LearnOptions {
  judge: Judge;
  embedder: Embedder;
  rounds: number;
  maxRules: number;
  seed: string | number;
  movie: string;
  instructionsFor: (criteria: readonly Criterion[]) => string;
  build: (criteria: readonly Criterion[]) => Promise<RoundBuild>;
}

async function proposeGuideline(
  judge: Judge,
  a: JudgeImage,
  b: JudgeImage,
  instructions: string,
): Promise<z.output<typeof Proposal> | null> {
  const t = loadTemplate('hero-propose');
  const v = await judge.ask({
    prompt: render(t, { instructions }),
    images: [a, b],
    labels: ['A', 'B'],
    protocol: { name: 'hero-propose', version: t.version },
    schema: Proposal,
  });
  return v.answer ?? null;
}

/** Index of the chain whose images are furthest apart on average (1 − cosine). */
export async function mostDissimilar(members: RoundBuild['members'], embedder: Embedder): Promise<number> {
  let best = 0;
  let bestD = Number.NEGATIVE_INFINITY;
  for (const [i, ms] of members.entries()) {
    const vecs = await embedder.embed(await Promise.all(ms.map((m) => decodeImage(m.bytes, m.id))));
    let s = 0;
    let n = 0;
    for (let x = 0; x < vecs.length; x++)
      for (let y = x + 1; y < vecs.length; y++) {
        s += 1 - cosine(vecs[x]!, vecs[y]!);
        n++;
      }
    const d = n ? s / n : 0;
    if (d > bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

const rule = (
  text: string,
  pair: [string, string],
  round: number,
  id: string,
  chain: string,
  anchor: string | undefined,
): Criterion => ({
  criterion_id: id,
  as_the_judge_read_it: text,
  source_pair: pair,
  round,
  source_chain: chain,
  ...(anchor === undefined ? {} : { source_anchor: anchor }),
});

/** A chain member's image by its id (a pair names only members of its own chain). */
function imageOf(members: readonly { id: string; image: JudgeImage }[], id: string): JudgeImage {
  const m = members.find((x) => x.id === id);
  if (!m) throw new InternalError(`pair names ${id}, not a member of its chain`);
  return m.image;
}

type Standing = { a: string; b: string; winner: string | null; status: 'confident' | 'unresolved' }[];

/** A round's candidate pairs: every unresolved pair and a seeded sample of two confident ones per chain. */
function candidatesOf<P extends { status: string }>(chains: readonly { pairs: P[] }[], rng: Rng) {
  return chains.flatMap((c, ci) => {
    const unresolved = c.pairs.filter((p) => p.status === 'unresolved');
    const confident = shuffled(
      c.pairs.filter((p) => p.status === 'confident'),
      rng,
    ).slice(0, 2);
    return [...unresolved, ...confident].map((p) => ({ ci, p }));
  });
}

/** Gate 2: whether, with the guideline's instructions, a confident pair of the group other than `pair` changes outcome. */
async function disturbs(
  judge: Judge,
  standing: Standing,
  pair: [string, string],
  groupImage: (id: string) => JudgeImage,
  instructions: string,
): Promise<boolean> {
  const [pa, pb] = pair;
  for (const q of standing) {
    if (q.status !== 'confident' || (q.a === pa && q.b === pb) || (q.a === pb && q.b === pa)) continue;
    const out = await comparePair(judge, groupImage(q.a), groupImage(q.b), instructions);
    const w = out.status === 'confident' ? (out.winner === 'A' ? q.a : q.b) : null;
    if (w !== q.winner) return true;
  }
  return false;
}

/** The group's pairs judged again under the grown rubric (after an admission). */
function rejudge(
  judge: Judge,
  standing: Standing,
  groupImage: (id: string) => JudgeImage,
  instructions: string,
): Promise<Standing> {
  return Promise.all(
    standing.map(async (q) => {
      const out = await comparePair(judge, groupImage(q.a), groupImage(q.b), instructions);
      return {
        a: q.a,
        b: q.b,
        winner: out.status === 'confident' ? (out.winner === 'A' ? q.a : q.b) : null,
        status: out.status,
      };
    }),
  );
}

export async function learnRubric(
  o: LearnOptions,
  start: readonly Criterion[],
): Promise<{
  criteria: Criterion[];
  proposals: ProposalLog[];
  rounds: RoundReport[];
}> {
  const criteria = [...start];
  const proposals: ProposalLog[] = [];
  const rounds: RoundReport[] = [];
  for (let round = 1; round <= o.rounds; round++) {
    const fb = await o.build(criteria);
    const group = await mostDissimilar(fb.members, o.embedder);
    const gm = fb.members[group]!;
    const groupImage = (id: string) => imageOf(gm, id);
    // the group's outcomes as they stand: the round's build, then re-judged after each admission
    let standing = fb.chains[group]!.pairs.map((q) => ({
      a: q.a,
      b: q.b,
      winner: q.winner,
      status: q.status,
    }));
    const rng = createRng(`${o.seed}/rubric/${o.movie}/${round}`);
    const candidates = candidatesOf(fb.chains, rng);
    const r: RoundReport = {
      round,
      proposals: 0,
      admitted: 0,
      rejected_gate1: 0,
      rejected_gate2: 0,
      no_proposal: 0,
      rejection_rate: 0,
    };
    for (const { ci, p } of candidates) {
      const pair: [string, string] = [p.a, p.b];
      const log = (outcome: ProposalOutcome, g: string | null = null, rev: string | null = null) =>
        proposals.push({
          round,
          source_pair: pair,
          source_status: p.status,
          guideline: g,
          reversed: rev,
          outcome,
        });
      if (criteria.length >= o.maxRules) {
        log('max_rules');
        continue;
      }
      const img = (id: string) => imageOf(fb.members[ci]!, id);
      const a = img(p.a);
      const b = img(p.b);
      r.proposals++;
      const prop = await proposeGuideline(o.judge, a, b, o.instructionsFor(criteria));
      if (!prop) {
        r.no_proposal++;
        log('no_proposal');
        continue;
      }
      const id = `r${round}_${String(criteria.length + 1).padStart(2, '0')}`;
      const chainId = fb.chains[ci]!.chain_id;
      // the chain's anchor as this round built it (the still Phase B asks about)
      const anchor = fb.members[ci]!.find((m) => m.source === 'still')?.id;
      const withG = o.instructionsFor([...criteria, rule(prop.guideline, pair, round, id, chainId, anchor)]);
      const withRev = o.instructionsFor([...criteria, rule(prop.reversed, pair, round, id, chainId, anchor)]);
      const [g1, g2] = await Promise.all([
        comparePair(o.judge, a, b, withG),
        comparePair(o.judge, a, b, withRev),
      ]);
      if (g1.status !== 'confident' || g2.status !== 'confident' || g1.winner === g2.winner) {
        r.rejected_gate1++;
        log('gate1', prop.guideline, prop.reversed);
        continue;
      }
      if (await disturbs(o.judge, standing, pair, groupImage, withG)) {
        r.rejected_gate2++;
        log('gate2', prop.guideline, prop.reversed);
        continue;
      }
      criteria.push(rule(prop.guideline, pair, round, id, chainId, anchor));
      r.admitted++;
      const grown = o.instructionsFor(criteria);
      standing = await rejudge(o.judge, standing, groupImage, grown);
      log('admitted', prop.guideline, prop.reversed);
    }
    const judged = r.proposals - r.no_proposal;
    r.rejection_rate = judged ? (r.rejected_gate1 + r.rejected_gate2) / judged : 0;
    rounds.push(r);
    if (r.admitted === 0) break;
  }
  return { criteria, proposals, rounds };
}

/** What Phase B reads of a rule. */
interface PhaseBRule {
  source_pair: readonly [string, string];
  source_chain?: string | undefined;
  source_anchor?: string | undefined;
}

/**
 * Phase B: a rule is moved out of the rubric when its source anchor (`source_anchor`, the
 * publicity still of the chain it came from) was deleted in that chain (`source_chain`) — the card:
 * "They appear under pruned_by_phase_b because their source anchor was deleted" — whether or not
 * the anchor was one of its source pair. A rule that does not record its anchor (written before
 * kfbench did) falls back to the images of its source pair (the floor deletes only stills, so the
 * one that can be deleted is the anchor); one that does not say its chain, to a deletion in any
 * chain of the film.
 */
export function phaseB<C extends PhaseBRule>(
  criteria: readonly C[],
  deletedIn: ReadonlyMap<string, ReadonlySet<string>>,
): { kept: C[]; pruned: C[] } {
  const anywhere = new Set([...deletedIn.values()].flatMap((s) => [...s]));
  const pruned = criteria.filter((c) => {
    const deleted = c.source_chain === undefined ? anywhere : deletedIn.get(c.source_chain);
    const asked = c.source_anchor === undefined ? c.source_pair : [c.source_anchor];
    return asked.some((id) => deleted?.has(id) === true);
  });
  return { kept: criteria.filter((c) => !pruned.includes(c)), pruned };
}

/**
 * Phase B against the final chains only: the deletions of the final build (the chains built with
 * the learned rubric, which are the ones published), never those of the learning rounds. A still
 * that is a member of its final chain is never counted as deleted there.
 */
export function phaseBFinal<C extends PhaseBRule>(
  criteria: readonly C[],
  final: {
    deletedIn: ReadonlyMap<string, ReadonlySet<string>>;
    chains: readonly { chain_id: string; order: readonly string[] }[];
  },
): { kept: C[]; pruned: C[] } {
  const members = new Map(final.chains.map((c) => [c.chain_id, new Set(c.order)]));
  const deletedIn = new Map(
    [...final.deletedIn].map(([chain, ids]) => [
      chain,
      new Set([...ids].filter((id) => !members.get(chain)?.has(id))),
    ]),
  );
  return phaseB(criteria, deletedIn);
}

/** Every film's rounds summed round by round (what `hero build` prints); rejection over proposals with a guideline. */
export function roundTotals(rounds: readonly RoundReport[]): RoundReport[] {
  return [...new Set(rounds.map((x) => x.round))]
    .sort((a, b) => a - b)
    .map((round) => {
      const rs = rounds.filter((x) => x.round === round);
      const sum = (f: (x: RoundReport) => number) => rs.reduce((s, x) => s + f(x), 0);
      const judged = sum((x) => x.proposals - x.no_proposal);
      const rejected = sum((x) => x.rejected_gate1) + sum((x) => x.rejected_gate2);
      return {
        round,
        proposals: sum((x) => x.proposals),
        admitted: sum((x) => x.admitted),
        rejected_gate1: sum((x) => x.rejected_gate1),
        rejected_gate2: sum((x) => x.rejected_gate2),
        no_proposal: sum((x) => x.no_proposal),
        rejection_rate: judged ? rejected / judged : 0,
      };
    });
}
