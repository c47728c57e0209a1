/**
 * One film's chains (`hero build` steps 1–4 and 7): members drawn, every pair judged under both
 * placements, Bradley–Terry, the still floor, and the stability re-judgement of a seeded sample.
 */
import { join } from 'node:path';
import { runPool } from '../../concurrency/pool.js';
import { BadInputError, InternalError } from '../../errors.js';
import { comparePair, type PairOutcome } from '../../judge/pairwise.js';
import {
  type BradleyTerryResult,
  DEFAULT_RIDGE,
  fitBradleyTerry,
  toScale0to100,
} from '../../stats/bradley-terry.js';
import { kendallTauB } from '../../stats/rank.js';
import { createRng, type Rng, shuffled } from '../../stats/rng.js';
import type { loadCore } from '../dataset/load.js';
import type { Chain, ChainStability } from '../dataset/schemas.js';
import { listStills } from '../stills-folder.js';
import type { Timeline } from '../track/timeline.js';
import { type Member, sampledMembers, stillMember } from './members.js';
import type { BuildOptions, UnresolvedPairsReading } from './options.js';

const pairKey = (a: string, b: string) => [a, b].sort().join('|');

/** The sampling seed of the stability re-judgement (the first judgement sends none). */
const STABILITY_SEED = 1;

/** What building one film's chains produced (counts are this film's alone). */
export interface FilmBuild {
  chains: ChainRow[];
  members: Member[][];
  replacements: number;
  /** Chains whose still stayed in the bottom half (no still left). */
  floorUnmet: number;
  /** Stills the floor deleted, by chain id. */
  deletedIn: Map<string, Set<string>>;
  confident: number;
  pairs: number;
  ridge: number;
  stabAgree: number[];
  stabTau: number[];
}

/** A chain row as `hero build` writes it: the published shape, with its own stability record. */
export type ChainRow = Chain & { stability?: ChainStability };

type Outcomes = Map<string, { a: string; b: string; out: PairOutcome }>;

/** What building a film's chains shares: the options, the instructions, the film's stills. */
interface FilmContext {
  o: BuildOptions;
  movie: string;
  instructions: string;
  timeline: Timeline;
  rng: Rng;
  /** The stills in their seeded order. */
  order: string[];
  stillOf: (id: string) => Promise<Member>;
  /** Sampled frames already in a chain of this film. */
  taken: Set<string>;
}

/** Judge every pair of `members` not judged yet, at once (the judge bounds the calls in flight). */
async function judgeAll(ctx: FilmContext, members: Member[], outcomes: Outcomes): Promise<void> {
  const todo: [Member, Member][] = [];
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++)
      if (!outcomes.has(pairKey(members[i]!.id, members[j]!.id))) todo.push([members[i]!, members[j]!]);
  // the first failure stops the rest
  await runPool(
    todo,
    async ([a, b], _i, signal) => {
      outcomes.set(pairKey(a.id, b.id), {
        a: a.id,
        b: b.id,
        out: await comparePair(ctx.o.judge.withSignal(signal), a.image, b.image, ctx.instructions),
      });
    },
    { concurrency: Math.max(1, todo.length) },
  );
}

/**
 * Step 3, Bradley–Terry over the pairs of the current members (an unresolved pair left out by
 * default, `fitComparisons`), and the members strongest first. The card: "Each carries the six-image order
 * with Bradley-Terry strengths".
 */
function rank(o: BuildOptions, members: Member[], outcomes: Outcomes) {
  const comps = fitComparisons(
    [...outcomes.values()].filter(
      (p) => members.some((m) => m.id === p.a) && members.some((m) => m.id === p.b),
    ),
    o.unresolvedPairs,
  );
  const bt = fitBradleyTerry(comps, { ridge: o.ridge ?? DEFAULT_RIDGE });
  const strength = (id: string) => fitted(bt.strengths, id);
  const sorted = [...members].sort((x, y) => strength(y.id) - strength(x.id) || x.id.localeCompare(y.id));
  return { bt, sorted };
}

/**
 * The comparisons a chain's Bradley–Terry fit reads: a confident pair a win for its winner; an
 * unresolved one left out (`error`, the default: no partial credit) or half a win each (`tie`).
 */
export function fitComparisons(
  pairs: readonly { a: string; b: string; out: { status: string; winner?: string | null | undefined } }[],
  unresolved: UnresolvedPairsReading = 'error',
): { a: string; b: string; score: number }[] {
  return pairs.flatMap((p) =>
    p.out.status === 'confident'
      ? [{ a: p.a, b: p.b, score: p.out.winner === 'A' ? 1 : 0 }]
      : unresolved === 'tie'
        ? [{ a: p.a, b: p.b, score: 0.5 }]
        : [],
  );
}

/** A member's fitted value: every member is in the fit, so a missing one is kfbench's fault. */
function fitted(values: Record<string, number>, id: string): number {
  const v = values[id];
  if (v === undefined) throw new InternalError(`Bradley–Terry fit has no value for ${id}`);
  return v;
}

/**
 * Step 4, the still floor: while the still ranks in the bottom half, replace it by the next unused
 * still of the film and judge again. Whether the floor stayed unmet (no still left). HeroFrame-Bench
 * card: "The still's only privilege is a floor: if it falls into the bottom half it is deleted and
 * replaced".
 */
async function stillFloor(
  ctx: FilmContext,
  chain: { members: Member[]; outcomes: Outcomes; deleted: Set<string> },
  f: FilmBuild,
): Promise<{ bt: BradleyTerryResult; sorted: Member[]; floorUnmet: boolean }> {
  const { members, outcomes } = chain;
  let { bt, sorted } = rank(ctx.o, members, outcomes);
  const usedStills = new Set([members[0]!.id]);
  for (;;) {
    const still = sorted.findIndex((m) => m.source === 'still');
    if (still < 3) return { bt, sorted, floorUnmet: false };
    const next = ctx.order.find((s) => !usedStills.has(s));
    if (!next) {
      f.floorUnmet++;
      return { bt, sorted, floorUnmet: true };
    }
    usedStills.add(next);
    const idx = members.findIndex((m) => m.source === 'still');
    chain.deleted.add(members[idx]!.id);
    members[idx] = await ctx.stillOf(next);
    f.replacements++;
    await judgeAll(ctx, members, outcomes);
    ({ bt, sorted } = rank(ctx.o, members, outcomes));
  }
}

/** The chain's pair rows, in member order (every pair was judged). */
function pairRows(members: Member[], outcomes: Outcomes, f: FilmBuild): Chain['pairs'] {
  const pairs: Chain['pairs'] = [];
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++) {
      const p = outcomes.get(pairKey(members[i]!.id, members[j]!.id));
      if (!p) throw new InternalError(`pair ${members[i]!.id}/${members[j]!.id} was not judged`);
      const winner = p.out.status === 'confident' ? (p.out.winner === 'A' ? p.a : p.b) : null;
      if (winner) f.confident++;
      pairs.push({
        a: p.a,
        b: p.b,
        winner,
        status: p.out.status,
        votes: p.out.verdicts.map((v) => v.winner),
      });
    }
  return pairs;
}

/** Step 7 for one chain: every pair judged again, relabelled and with another seed; agreement and τ. */
async function stabilityOf(
  ctx: FilmContext,
  members: Member[],
  pairs: Chain['pairs'],
  ranked: { bt: BradleyTerryResult; sorted: Member[] },
  f: FilmBuild,
): Promise<ChainStability> {
  let same = 0;
  const comps = [];
  const member = (id: string) => {
    const m = members.find((x) => x.id === id);
    if (!m) throw new InternalError(`pair names ${id}, not a member of its chain`);
    return m;
  };
  for (const p of pairs) {
    const a = member(p.a);
    const b = member(p.b);
    const re = await comparePair(ctx.o.judge, a.image, b.image, ctx.instructions, {
      relabel: true,
      seed: STABILITY_SEED,
    });
    const w = re.status === 'confident' ? (re.winner === 'A' ? a.id : b.id) : null;
    if (w === p.winner) same++;
    comps.push({ a: p.a, b: p.b, score: w === null ? 0.5 : w === p.a ? 1 : 0 });
  }
  const bt2 = fitBradleyTerry(comps, { ridge: ctx.o.ridge ?? DEFAULT_RIDGE });
  const ids = ranked.sorted.map((m) => m.id);
  const tau = kendallTauB(
    ids.map((id) => fitted(ranked.bt.strengths, id)),
    ids.map((id) => fitted(bt2.strengths, id)),
  );
  const stability = { agreement: same / pairs.length, kendall_tau: Number.isFinite(tau) ? tau : null };
  f.stabAgree.push(stability.agreement);
  f.stabTau.push(tau);
  return stability;
}

/** Steps 1–4 and 7 for chain number `c` of the film. */
async function buildChain(ctx: FilmContext, c: number, f: FilmBuild): Promise<ChainRow> {
  const { o, movie, rng } = ctx;
  const chainId = `${movie.slice(0, 8)}_c${String(c).padStart(2, '0')}`;
  const deleted = new Set<string>();
  const members: Member[] = [await ctx.stillOf(ctx.order[c % ctx.order.length]!)];
  const clipsInChain = new Set<string>();
  members.push(
    ...(await sampledMembers(o, movie, ctx.timeline, rng, ctx.taken, clipsInChain, 6 - members.length)),
  );
  const outcomes: Outcomes = new Map();
  await judgeAll(ctx, members, outcomes);
  const { bt, sorted, floorUnmet } = await stillFloor(ctx, { members, outcomes, deleted }, f);
  if (bt.ridge > 0) f.ridge++;
  const theta = toScale0to100(bt.strengths);
  const pairs = pairRows(members, outcomes, f);
  // stability on a seeded sample
  const stability =
    rng.next() < (o.stabilitySample ?? 0.2)
      ? await stabilityOf(ctx, members, pairs, { bt, sorted }, f)
      : undefined;
  if (deleted.size) f.deletedIn.set(chainId, deleted);
  f.members.push([...members]);
  f.pairs += pairs.length;
  return {
    chain_id: chainId,
    order: sorted.map((m) => m.id),
    images: sorted.map((m) => ({
      image_id: m.id,
      source: m.source,
      ...(m.clip_id ? { clip_id: m.clip_id, t_in_clip: m.t_in_clip } : {}),
      gamma: fitted(bt.strengths, m.id),
      theta_0_100: fitted(theta, m.id),
    })),
    pairs,
    ...(stability ? { stability } : {}),
    ...(floorUnmet ? { still_floor_unmet: true } : {}),
    ...(bt.ridge > 0 ? { ridge: bt.ridge } : {}),
  };
}

/** Steps 1–4 and 7 for one film with the given instructions (its rubric included). */
export async function buildFilm(
  o: BuildOptions,
  ds: Awaited<ReturnType<typeof loadCore>>,
  movie: string,
  instructions: string,
): Promise<FilmBuild> {
  const f: FilmBuild = {
    chains: [],
    members: [],
    replacements: 0,
    floorUnmet: 0,
    deletedIn: new Map(),
    confident: 0,
    pairs: 0,
    ridge: 0,
    stabAgree: [],
    stabTau: [],
  };
  const stillDir = join(o.stills, movie);
  const stillFiles = listStills(o.stills, movie);
  const stillIds = [...stillFiles.keys()].sort();
  if (stillIds.length === 0)
    throw new BadInputError(`no publicity stills for ${movie} (expected ${stillDir}/<image_id>.jpg)`);
  const timeline = ds.timelines.get(movie);
  // the callers build the films of the dataset's timelines: one without is kfbench's fault
  if (!timeline) throw new InternalError(`buildFilm: movie ${movie} has no timeline`);
  const rng = createRng(`${o.seed ?? 0}/build/${movie}`);
  const ctx: FilmContext = {
    o,
    movie,
    instructions,
    timeline,
    rng,
    order: shuffled(stillIds, rng),
    stillOf: (id) => stillMember(o.encoder, id, join(stillDir, stillFiles.get(id)!)),
    taken: new Set(),
  };
  for (let c = 0; c < (o.chainsPerFilm ?? 10); c++) f.chains.push(await buildChain(ctx, c, f));
  return f;
}
