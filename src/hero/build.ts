/**
 * `hero build` (SPEC §2.5 steps 1–4 and 7), so users can make chains for their own films:
 *  1. each chain takes one publicity still and five frames sampled from the footage at random
 *     times *off* the 1 fps grid (at least 0.1 s from a bucket midpoint), from five different
 *     clips while the film has that many (so a chain holds no near-duplicates), seeded;
 *  2. all 15 pairs are judged under both placements with the film's current rubric;
 *  3. Bradley–Terry per chain (unresolved = tie; the ridge when separable is recorded) → gamma,
 *     theta_0_100 (weakest 0, strongest 100), order by gamma;
 *  4. still floor: a still in the bottom half is deleted and replaced by another still of the film
 *     (its pairs judged), counted; when the film runs out of stills while its still is still in the
 *     bottom half, the chain is kept but flagged `still_floor_unmet: true` and counted;
 *  7. stability: a seeded sample of chains is re-judged as different questions: every pair again
 *     in both placements with the images relabelled (the letters swapped between the two images,
 *     template `pairwise-relabelled`) and with sampling seed 1 (the first judgement sends none) for
 *     backends that take one, so a cached or deterministic answer is not simply repeated;
 *     agreement of pair outcomes and Kendall τ between the two strength orders are recorded. It
 *     measures how much an order depends on the labels and wording of the question (at
 *     temperature 0 nothing else varies).
 * Stills are read from the file they are listed as (`.jpg`, `.jpeg`, any case) and written under
 * images/ as `<image_id>.jpg`.
 * Writes chains.jsonl, the chain images under images/ and images/image_sha256.jsonl in the
 * published shape, atomically. With `learnRubric`, steps 5 (rubric learning, `rubric-learn.ts`)
 * and 6 (Phase B: rules whose source pair holds a still that a floor step deleted *in the chain the
 * rule came from* are moved to `pruned_by_phase_b`) come before the final build, and rubrics.jsonl and
 * stats/rubric_proposals.jsonl are written too.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPool } from '../concurrency/pool.js';
import { createBuiltinEmbedder } from '../embed/builtin.js';
import type { Embedder } from '../embed/embedder.js';
import { BadInputError } from '../errors.js';
import type { ImageEncoder } from '../judge/images.js';
import type { Judge } from '../judge/judge.js';
import { comparePair, type PairOutcome } from '../judge/pairwise.js';
import type { JudgeImage } from '../judge/types.js';
import { streamFrames } from '../media/frames.js';
import { encodeImage } from '../media/image.js';
import { probe } from '../media/probe.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { DEFAULT_RIDGE, fitBradleyTerry, toScale0to100 } from '../stats/bradley-terry.js';
import { meanOrNull } from '../stats/mean.js';
import { kendallTauB } from '../stats/rank.js';
import { createRng, type Rng, shuffled } from '../stats/rng.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { sha256Hex } from '../store/canonical.js';
import { writeJsonl } from '../store/jsonl.js';
import { datasetPaths, imagePath } from './dataset/layout.js';
import { loadCore, loadRubrics } from './dataset/load.js';
import {
  type BuildReport,
  type Chain,
  type ChainStability,
  FilmChainsRecord,
  type FilmRubric,
  FilmRubricRecord,
  ImageHash,
  RubricProposal,
} from './dataset/schemas.js';
import { heroInstructions } from './prompt.js';
import { learnRubric, phaseBFinal } from './rubric-learn.js';
import { clipFiles } from './track/clip-files.js';
import type { Timeline } from './track/timeline.js';

/**
 * A film's publicity stills in a stills folder (`<stills>/<movie_id>/<image_id>.jpg`): image id →
 * file name. Each still is read back from the file it was listed as (.jpg, .jpeg, any case); two
 * files with one id are bad input. A film without a folder has none.
 */
export function listStills(stills: string, movie: string): Map<string, string> {
  const stillDir = join(stills, movie);
  const stillFiles = new Map<string, string>();
  if (existsSync(stillDir))
    for (const name of readdirSync(stillDir).sort())
      if (/\.jpe?g$/i.test(name)) {
        const id = name.replace(/\.jpe?g$/i, '');
        if (stillFiles.has(id))
          throw new BadInputError(
            `two stills of ${movie} share the id ${id} (${stillFiles.get(id)}, ${name})`,
            {
              file: join(stillDir, name),
            },
          );
        stillFiles.set(id, name);
      }
  return stillFiles;
}

export interface BuildOptions {
  data: string;
  lsmdc: string;
  stills: string;
  judge: Judge;
  encoder: ImageEncoder;
  chainsPerFilm?: number;
  seed?: number | string;
  /** Share of chains re-judged for stability (default 0.2). */
  stabilitySample?: number;
  ridge?: number;
  /** Phase `build`: one item per film. */
  onProgress?: OnProgress;
  /** Step 5: learn the rubric in rounds before the final build (`--learn-rubric`). */
  learnRubric?: boolean;
  rounds?: number;
  maxRules?: number;
  /** For the most dissimilar group (default: builtin). */
  embedder?: Embedder;
}

interface Member {
  id: string;
  source: 'still' | 'sampled';
  clip_id?: string;
  t_in_clip?: number;
  image: JudgeImage;
  bytes: Buffer;
}

const pairKey = (a: string, b: string) => [a, b].sort().join('|');

/** The sampling seed of the stability re-judgement (the first judgement sends none). */
const STABILITY_SEED = 1;

const STABILITY_MEASURES =
  'a sample of chains re-judged pair by pair in both placements with the letters swapped between the two images and sampling seed 1 (for backends that take a seed): the share of pair outcomes that came out the same, and Kendall τ between the two strength orders (how much an order depends on the labels of the question and, above temperature 0, on sampling; at temperature 0 only the labels vary)';

function clipFile(lsmdc: string, movie: string, clip: string): string {
  const f = clipFiles(lsmdc, movie).get(clip);
  if (!f) throw new BadInputError(`clip ${clip} of ${movie} has no video file under ${join(lsmdc, movie)}`);
  return f;
}

/** A random time off the 1 fps grid (≥ 0.1 s from any bucket midpoint k + 0.5). */
function offGridTime(tl: Timeline, rng: Rng): number {
  for (;;) {
    const t = rng.next() * tl.length_us;
    const frac = (t / 1e6) % 1;
    if (Math.abs(frac - 0.5) >= 0.1) return Math.floor(t);
  }
}

async function sampledMember(
  o: BuildOptions,
  movie: string,
  tl: Timeline,
  rng: Rng,
  taken: Set<string>,
  clipsInChain: Set<string>,
): Promise<Member> {
  for (let attempt = 0; ; attempt++) {
    const at = tl.locate(offGridTime(tl, rng));
    const id = `${at.clip_id}_t${Math.round(at.t_in_clip * 1000)}`;
    if (taken.has(id)) continue;
    // one frame per clip in a chain while the film has clips to spare (near-duplicates teach nothing)
    if (clipsInChain.has(at.clip_id) && attempt < 50 * tl.clips.length) continue;
    const info = await probe(clipFile(o.lsmdc, movie, at.clip_id));
    const t = Math.min(at.t_in_clip, info.duration_s - 1 / info.fps);
    for await (const f of streamFrames(info, { kind: 'times', times: [Math.max(0, t)] })) {
      const bytes = await encodeImage(f, { format: 'jpeg', quality: 92 });
      taken.add(id);
      clipsInChain.add(at.clip_id);
      return {
        id,
        source: 'sampled',
        clip_id: at.clip_id,
        t_in_clip: Math.round(at.t_in_clip * 1000) / 1000,
        image: await o.encoder.fromRaw(f),
        bytes,
      };
    }
  }
}

export async function buildChains(o: BuildOptions): Promise<BuildReport> {
  const ds = await loadCore(o.data);
  const rubrics = await loadRubrics(o.data);
  const paths = datasetPaths(o.data);
  const films = [...ds.timelines.keys()].sort();
  const report: BuildReport = {
    films: 0,
    chains: 0,
    pairs: 0,
    confident_share: 0,
    still_replacements: 0,
    still_floor_unmet: 0,
    ridge_used: 0,
    stability: { chains: 0, agreement: null, kendall_tau: null, measures: STABILITY_MEASURES },
  };
  if (o.learnRubric) report.rubric = { rounds: [], rules: 0, pruned_by_phase_b: 0 };
  const rubricRows: FilmRubric[] = [];
  const proposalRows: RubricProposal[] = [];
  let confident = 0;
  const stabAgree: number[] = [];
  const stabTau: number[] = [];
  const rows: { movie_id: string; chains: ChainRow[] }[] = [];
  const shaRows: ImageHash[] = [];
  const progress = phaseReporter(o.onProgress, 'build', 'films');
  progress.start(films.length, o.learnRubric ? 'rubric learning first' : undefined);
  for (const movie of films) {
    const movieRow = ds.movies.get(movie) ?? { title: movie, year: 0 };
    const learned = o.learnRubric
      ? await learnRubric(
          {
            judge: o.judge,
            embedder: o.embedder ?? createBuiltinEmbedder(),
            rounds: o.rounds ?? 2,
            maxRules: o.maxRules ?? 20,
            seed: o.seed ?? 0,
            movie,
            instructionsFor: (criteria) => heroInstructions(movieRow, { criteria }),
            build: (criteria) => buildFilm(o, ds, movie, heroInstructions(movieRow, { criteria })),
          },
          rubrics.get(movie)?.criteria ?? [],
        )
      : undefined;
    const fb = await buildFilm(
      o,
      ds,
      movie,
      heroInstructions(movieRow, learned ? { criteria: learned.criteria } : rubrics.get(movie)),
    );
    if (learned) {
      // Phase B against the final chains only (a still deleted in a learning round may be back)
      const { kept, pruned } = phaseBFinal(learned.criteria, fb);
      rubricRows.push({ movie_id: movie, criteria: kept, pruned_by_phase_b: pruned });
      proposalRows.push(...learned.proposals.map((p) => ({ movie_id: movie, ...p })));
      report.rubric!.rounds.push(...learned.rounds.map((r) => ({ movie_id: movie, ...r })));
      report.rubric!.rules += kept.length;
      report.rubric!.pruned_by_phase_b += pruned.length;
    }
    const chains = fb.chains;
    report.still_replacements += fb.replacements;
    report.still_floor_unmet += fb.floorUnmet;
    report.ridge_used += fb.ridge;
    confident += fb.confident;
    stabAgree.push(...fb.stabAgree);
    stabTau.push(...fb.stabTau);
    for (const members of fb.members)
      for (const m of members) {
        await writeFileAtomic(imagePath(o.data, movie, m.id), m.bytes);
        shaRows.push({ path: `images/${movie}/${m.id}.jpg`, sha256: sha256Hex(m.bytes) });
      }
    report.chains += fb.chains.length;
    report.pairs += fb.pairs;
    rows.push({ movie_id: movie, chains });
    report.films++;
    progress.done(movie);
  }
  progress.finish();
  const uniqueSha = [...new Map(shaRows.map((r) => [r.path, r])).values()].sort((a, b) =>
    a.path.localeCompare(b.path),
  );
  await writeJsonl(paths.chains, FilmChainsRecord, rows);
  if (o.learnRubric) {
    await writeJsonl(paths.rubrics, FilmRubricRecord, rubricRows);
    await writeJsonl(paths.rubricProposals, RubricProposal, proposalRows);
  }
  await writeJsonl(paths.imageSha, ImageHash, uniqueSha);
  report.confident_share = report.pairs ? confident / report.pairs : 0;
  report.stability = {
    chains: stabAgree.length,
    agreement: meanOrNull(stabAgree),
    kendall_tau: meanOrNull(stabTau.filter((t) => Number.isFinite(t))),
    measures: STABILITY_MEASURES,
  };
  await writeFileAtomic(paths.buildReport, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/** What building one film's chains produced (counts are this film's alone). */
interface FilmBuild {
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
type ChainRow = Chain & { stability?: ChainStability };

/** Steps 1–4 and 7 for one film with the given instructions (its rubric included). */
async function buildFilm(
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
  const stillMember = async (id: string): Promise<Member> => {
    const file = join(stillDir, stillFiles.get(id)!);
    return { id, source: 'still', image: await o.encoder.fromFile(file), bytes: readFileSync(file) };
  };
  const taken = new Set<string>();
  const chains: ChainRow[] = [];
  for (let c = 0; c < perFilm; c++) {
    const chainId = `${movie.slice(0, 8)}_c${String(c).padStart(2, '0')}`;
    const deletedHere = new Set<string>();
    const members: Member[] = [await stillMember(order[c % order.length]!)];
    const clipsInChain = new Set<string>();
    while (members.length < 6)
      members.push(await sampledMember(o, movie, ds.timelines.get(movie)!, rng, taken, clipsInChain));
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
      members[idx] = await stillMember(next);
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
