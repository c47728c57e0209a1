/**
 * One film's chains (`hero build` steps 1–4 and 7): members drawn, every pair judged under both
 * placements, Bradley–Terry, the still floor, and the stability re-judgement of a seeded sample.
 */
import { join } from 'node:path';
import { runPool } from '../../concurrency/pool.js';
import { BadInputError } from '../../errors.js';
import { comparePair, type PairOutcome } from '../../judge/pairwise.js';
import { DEFAULT_RIDGE, fitBradleyTerry, toScale0to100 } from '../../stats/bradley-terry.js';
import { kendallTauB } from '../../stats/rank.js';
import { createRng, shuffled } from '../../stats/rng.js';
import type { loadCore } from '../dataset/load.js';
import type { Chain, ChainStability } from '../dataset/schemas.js';
import { listStills } from '../stills-folder.js';
import { type Member, sampledMembers, stillMember } from './members.js';
import type { BuildOptions } from './options.js';

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

/** Steps 1–4 and 7 for one film with the given instructions (its rubric included). */
export async function buildFilm(
  o: BuildOptions,
  ds: Awaited<ReturnType<typeof loadCore>>,
  movie: string,
  instructions: string,
): Promise<FilmBuild> {
  const perFilm = o.chainsPerFilm ?? 10;
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
  const rng = createRng(`${o.seed ?? 0}/build/${movie}`);
  const order = shuffled(stillIds, rng);
  const stillOf = (id: string) => stillMember(o.encoder, id, join(stillDir, stillFiles.get(id)!));
  const taken = new Set<string>();
  const chains: ChainRow[] = [];
  for (let c = 0; c < perFilm; c++) {
    const chainId = `${movie.slice(0, 8)}_c${String(c).padStart(2, '0')}`;
    const deletedHere = new Set<string>();
    const members: Member[] = [await stillOf(order[c % order.length]!)];
    const clipsInChain = new Set<string>();
    members.push(
      ...(await sampledMembers(
        o,
        movie,
        ds.timelines.get(movie)!,
        rng,
        taken,
        clipsInChain,
        6 - members.length,
      )),
    );
    const outcomes = new Map<string, { a: string; b: string; out: PairOutcome }>();
    const judgeAll = async () => {
      const todo: [Member, Member][] = [];
      for (let i = 0; i < members.length; i++)
        for (let j = i + 1; j < members.length; j++)
          if (!outcomes.has(pairKey(members[i]!.id, members[j]!.id))) todo.push([members[i]!, members[j]!]);
      // every pair at once (the judge bounds the calls in flight); the first failure stops the rest
      await runPool(
        todo,
        async ([a, b], _i, signal) => {
          outcomes.set(pairKey(a.id, b.id), {
            a: a.id,
            b: b.id,
            out: await comparePair(o.judge.withSignal(signal), a.image, b.image, instructions),
          });
        },
        { concurrency: Math.max(1, todo.length) },
      );
    };
    const rank = () => {
      const comps = [...outcomes.values()]
        .filter((p) => members.some((m) => m.id === p.a) && members.some((m) => m.id === p.b))
        .map((p) => ({
          a: p.a,
          b: p.b,
          score: p.out.status === 'confident' ? (p.out.winner === 'A' ? 1 : 0) : 0.5,
        }));
      const bt = fitBradleyTerry(comps, { ridge: o.ridge ?? DEFAULT_RIDGE });
      const sorted = [...members].sort(
        (x, y) => bt.strengths[y.id]! - bt.strengths[x.id]! || x.id.localeCompare(y.id),
      );
      return { bt, sorted };
    };
    await judgeAll();
    let { bt, sorted } = rank();
    // still floor
    const usedStills = new Set([members[0]!.id]);
    let floorUnmet = false;
    for (;;) {
      const still = sorted.findIndex((m) => m.source === 'still');
      if (still < 3) break;
      const next = order.find((s) => !usedStills.has(s));
      if (!next) {
        floorUnmet = true;
        f.floorUnmet++;
        break;
      }
      usedStills.add(next);
      const idx = members.findIndex((m) => m.source === 'still');
      deletedHere.add(members[idx]!.id);
      members[idx] = await stillOf(next);
      f.replacements++;
      await judgeAll();
      ({ bt, sorted } = rank());
    }
    if (bt.ridge > 0) f.ridge++;
    const theta = toScale0to100(bt.strengths);
    const pairs: Chain['pairs'] = [];
    for (let i = 0; i < members.length; i++)
      for (let j = i + 1; j < members.length; j++) {
        const p = outcomes.get(pairKey(members[i]!.id, members[j]!.id))!;
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
    // stability on a seeded sample
    let stability: ChainStability | undefined;
    if (rng.next() < (o.stabilitySample ?? 0.2)) {
      let same = 0;
      const comps = [];
      for (const p of pairs) {
        const a = members.find((m) => m.id === p.a)!;
        const b = members.find((m) => m.id === p.b)!;
        const re = await comparePair(o.judge, a.image, b.image, instructions, {
          relabel: true,
          seed: STABILITY_SEED,
        });
        const w = re.status === 'confident' ? (re.winner === 'A' ? a.id : b.id) : null;
        if (w === p.winner) same++;
        comps.push({ a: p.a, b: p.b, score: w === null ? 0.5 : w === p.a ? 1 : 0 });
      }
      const bt2 = fitBradleyTerry(comps, { ridge: o.ridge ?? DEFAULT_RIDGE });
      const ids = sorted.map((m) => m.id);
      const tau = kendallTauB(
        ids.map((id) => bt.strengths[id]!),
        ids.map((id) => bt2.strengths[id]!),
      );
      stability = { agreement: same / pairs.length, kendall_tau: Number.isFinite(tau) ? tau : null };
      f.stabAgree.push(stability.agreement);
      f.stabTau.push(tau);
    }
    if (deletedHere.size) f.deletedIn.set(chainId, deletedHere);
    chains.push({
      chain_id: chainId,
      order: sorted.map((m) => m.id),
      images: sorted.map((m) => ({
        image_id: m.id,
        source: m.source,
        ...(m.clip_id ? { clip_id: m.clip_id, t_in_clip: m.t_in_clip } : {}),
        gamma: bt.strengths[m.id]!,
        theta_0_100: theta[m.id]!,
      })),
      pairs,
      ...(stability ? { stability } : {}),
      ...(floorUnmet ? { still_floor_unmet: true } : {}),
      ...(bt.ridge > 0 ? { ridge: bt.ridge } : {}),
    });
    f.members.push([...members]);
    f.pairs += pairs.length;
  }
  f.chains = chains;
  return f;
}
