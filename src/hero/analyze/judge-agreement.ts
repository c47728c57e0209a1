/**
 * Two analyses of the HeroFrame judge (the seed's "Reading the data correctly"):
 *  - `human`: the judge's agreement with human pairwise choices, without and with the film's
 *    rubric (Wilson intervals; McNemar between the two conditions on the same pairs). An
 *    unresolved comparison counts as an error, as the published analysis does.
 *  - `rubric-swap`: agreement with the chains' confident pairs when each film is served its own
 *    rubric, another film's (a seeded derangement of the films) or none; exact or sampled
 *    sign-flip permutation p-values for own vs swapped and swapped vs none, paired by pair.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { BadInputError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { comparePair } from '../../judge/pairwise.js';
import { signFlipTest } from '../../stats/permutation.js';
import { mcnemar, wilson } from '../../stats/proportion.js';
import { createRng, shuffled } from '../../stats/rng.js';
import { readJsonl } from '../../store/jsonl.js';
import { datasetPaths, imagePath } from '../dataset/layout.js';
import type { Layout } from '../dataset/layout-map.js';
import { loadByFilm, openDataset } from '../dataset/load.js';
import { Movie, SafeId } from '../dataset/schemas.js';
import { heroInstructions } from '../prompt.js';

const HumanPair = z.object({ movie_id: SafeId, a: SafeId, b: SafeId, human_winner: SafeId });

interface Agreement {
  n: number;
  correct: number;
  rate: number;
  ci: [number, number];
}

const agreement = (correct: boolean[]): Agreement => {
  const c = correct.filter(Boolean).length;
  return {
    n: correct.length,
    correct: c,
    rate: correct.length ? c / correct.length : 0,
    ci: wilson(c, correct.length),
  };
};

interface Ctx {
  root: string;
  layout: Layout;
  judge: Judge;
  encoder: ImageEncoder;
}

async function loadFilms(root: string, layout: Layout) {
  const p = datasetPaths(root);
  const movies = await loadByFilm(p.movies, Movie);
  const rubrics = await openDataset(root, layout).rubrics();
  return { movies, rubrics };
}

async function judgedWinner(
  ctx: Ctx,
  movieId: string,
  a: string,
  b: string,
  instructions: string,
): Promise<string | null> {
  const [ia, ib] = await Promise.all([
    ctx.encoder.fromFile(imagePath(ctx.root, movieId, a)),
    ctx.encoder.fromFile(imagePath(ctx.root, movieId, b)),
  ]);
  const o = await comparePair(ctx.judge, ia, ib, instructions);
  return o.winner === 'A' ? a : o.winner === 'B' ? b : null;
}

export interface HumanResult {
  without_rubric: Agreement;
  with_rubric: Agreement;
  /** b: right without the rubric and wrong with it; c: the reverse. */
  mcnemar: ReturnType<typeof mcnemar>;
}

export async function humanAgreement(ctx: Ctx, pairsFile: string): Promise<HumanResult> {
  const { movies, rubrics } = await loadFilms(ctx.root, ctx.layout);
  const rows: z.output<typeof HumanPair>[] = [];
  for await (const l of readJsonl(pairsFile, HumanPair)) {
    const v = l.value;
    const where = { file: pairsFile, line: l.line };
    if (!movies.has(v.movie_id)) throw new BadInputError(`unknown film ${v.movie_id}`, where);
    for (const id of [v.a, v.b])
      if (!existsSync(imagePath(ctx.root, v.movie_id, id)))
        throw new BadInputError(
          `unknown image ${id} of ${v.movie_id} (no ${imagePath(ctx.root, v.movie_id, id)})`,
          where,
        );
    if (v.human_winner !== v.a && v.human_winner !== v.b)
      throw new BadInputError(`human_winner ${v.human_winner} is neither a (${v.a}) nor b (${v.b})`, where);
    rows.push(v);
  }
  if (!rows.length) throw new BadInputError('has no pairs', { file: pairsFile });
  const without: boolean[] = [];
  const withR: boolean[] = [];
  for (const r of rows) {
    const movie = movies.get(r.movie_id)!;
    without.push((await judgedWinner(ctx, r.movie_id, r.a, r.b, heroInstructions(movie))) === r.human_winner);
    withR.push(
      (await judgedWinner(ctx, r.movie_id, r.a, r.b, heroInstructions(movie, rubrics.get(r.movie_id)))) ===
        r.human_winner,
    );
  }
  const b = without.filter((x, i) => x && !withR[i]).length;
  const c = without.filter((x, i) => !x && withR[i]).length;
  return { without_rubric: agreement(without), with_rubric: agreement(withR), mcnemar: mcnemar(b, c) };
}

export interface RubricSwapResult {
  pairs: number;
  /** film → the film whose rubric it was served. */
  swap: Record<string, string>;
  own: Agreement;
  swapped: Agreement;
  none: Agreement;
  p_own_vs_swapped: { p: number; exact: boolean };
  p_swapped_vs_none: { p: number; exact: boolean };
}

/** A seeded derangement: every film gets another film's rubric. */
function derangement(ids: readonly string[], seed: string | number): Record<string, string> {
  if (ids.length < 2) throw new BadInputError('rubric-swap needs at least two films');
  const rng = createRng(seed);
  for (;;) {
    const perm = shuffled(ids, rng);
    if (perm.every((x, i) => x !== ids[i])) return Object.fromEntries(ids.map((id, i) => [id, perm[i]!]));
  }
}

export async function rubricSwap(ctx: Ctx, seed: string | number): Promise<RubricSwapResult> {
  const { movies, rubrics } = await loadFilms(ctx.root, ctx.layout);
  const ids = [...movies.keys()].sort();
  const swap = derangement(ids, seed);
  const own: boolean[] = [];
  const swapped: boolean[] = [];
  const none: boolean[] = [];
  for (const film of (await openDataset(ctx.root, ctx.layout).chains()).values()) {
    const m = film.movie_id;
    const movie = movies.get(m);
    if (!movie) continue;
    for (const c of film.chains)
      for (const pr of c.pairs) {
        if (pr.status !== 'confident' || !pr.winner) continue;
        own.push(
          (await judgedWinner(ctx, m, pr.a, pr.b, heroInstructions(movie, rubrics.get(m)))) === pr.winner,
        );
        swapped.push(
          (await judgedWinner(ctx, m, pr.a, pr.b, heroInstructions(movie, rubrics.get(swap[m]!)))) ===
            pr.winner,
        );
        none.push((await judgedWinner(ctx, m, pr.a, pr.b, heroInstructions(movie))) === pr.winner);
      }
  }
  const diff = (x: boolean[], y: boolean[]) => x.map((v, i) => Number(v) - Number(y[i]));
  const rng = createRng(`${seed}/permutation`);
  return {
    pairs: own.length,
    swap,
    own: agreement(own),
    swapped: agreement(swapped),
    none: agreement(none),
    p_own_vs_swapped: signFlipTest(
      diff(own, swapped).filter((d) => d !== 0),
      { rng },
    ),
    p_swapped_vs_none: signFlipTest(
      diff(swapped, none).filter((d) => d !== 0),
      { rng },
    ),
  };
}
