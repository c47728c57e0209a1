/**
 * The local reader fitted on a HeroFrame dataset (`hero fit-reader`), and any reader's agreement
 * with the chains (`hero check-reader`): under `listwise` (the default, the protocol `hero evaluate`
 * scores with) each chain image is taken out and inserted back into the rest of its chain by one
 * positional question, agreeing when it lands exactly where the chain has it; under `pairwise` the
 * chains' confident pairs are asked under both placements.
 */

import { runPool } from '../../concurrency/pool.js';
import { type Embedder, embedOne } from '../../embed/embedder.js';
import type { OnnxOptions } from '../../embed/onnx-options.js';
import { createEmbedder } from '../../embed/registry.js';
import { BadInputError } from '../../errors.js';
import { ImageEncoder } from '../../judge/images.js';
import { insertIntoChain } from '../../judge/insertion.js';
import type { Judge } from '../../judge/judge.js';
import { fitLocalReader, type LabelledPair, type ReaderFile } from '../../judge/local.js';
import { comparePair } from '../../judge/pairwise.js';
import { decodeImage } from '../../media/image.js';
import { wilson } from '../../stats/proportion.js';
import { createRng, shuffled } from '../../stats/rng.js';
import { imagePath } from '../dataset/layout.js';
import type { Layout } from '../dataset/layout-map.js';
import { loadChains, loadCore, loadRubrics } from '../dataset/load.js';
import { heroInstructions } from '../prompt.js';
import { filmTemplate, filmText, resolveReaderPrompt } from './prompt.js';

export interface ConfidentPair {
  movie_id: string;
  a: string;
  b: string;
  winner: string;
}

export async function confidentPairs(data: string, layout?: Layout): Promise<ConfidentPair[]> {
  const chains = await loadChains(data, layout);
  const out: ConfidentPair[] = [];
  const seen = new Set<string>();
  for (const [movie_id, f] of [...chains].sort((x, y) => x[0].localeCompare(y[0]))) {
    for (const c of f.chains)
      for (const p of c.pairs) {
        if (p.status !== 'confident' || !p.winner) continue;
        const key = `${movie_id}|${[p.a, p.b].sort().join('|')}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ movie_id, a: p.a, b: p.b, winner: p.winner });
      }
  }
  return out;
}

/** Features of dataset images as the local reader sees them (JPEG as sent to a judge, decoded, embedded). */
async function featureLoader(data: string, embedder: Embedder) {
  const enc = new ImageEncoder();
  const cache = new Map<string, Promise<Float32Array>>();
  return (movie: string, id: string) => {
    const k = `${movie}/${id}`;
    let p = cache.get(k);
    if (!p) {
      p = enc
        .fromFile(imagePath(data, movie, id))
        .then(async (j) => embedOne(embedder, await decodeImage(j.bytes, imagePath(data, movie, id))));
      cache.set(k, p);
    }
    return p;
  };
}

export interface FitReport {
  reader: ReaderFile;
  films: number;
  pairs: number;
  /** 5-fold cross-validated agreement, folds by film (film i in fold i mod 5, films sorted). */
  cv_agreement: number;
  folds: { films: number; pairs: number; agreement: number }[];
}

export async function fitHeroReader(o: {
  data: string;
  layout?: Layout | undefined;
  embedder?: string;
  /** ONNX threads and device (`--threads`, `--device`). */
  embedderOptions?: OnnxOptions;
  lambda?: number;
}): Promise<FitReport> {
  const pairs = await confidentPairs(o.data, o.layout);
  if (pairs.length === 0) throw new BadInputError('no confident pairs to fit a reader on', { file: o.data });
  const embedder = await createEmbedder(o.embedder ?? 'builtin', o.embedderOptions);
  const feat = await featureLoader(o.data, embedder);
  const labelled: (LabelledPair & { movie_id: string })[] = [];
  for (const p of pairs)
    labelled.push({
      movie_id: p.movie_id,
      a: await feat(p.movie_id, p.a),
      b: await feat(p.movie_id, p.b),
      winner: p.winner === p.a ? 'a' : 'b',
    });
  const films = [...new Set(pairs.map((p) => p.movie_id))].sort();
  const lambda = o.lambda ?? 1;
  const folds: FitReport['folds'] = [];
  let agree = 0;
  let total = 0;
  const K = Math.min(5, films.length);
  for (let f = 0; f < K; f++) {
    const held = new Set(films.filter((_, i) => i % K === f));
    const train = labelled.filter((p) => !held.has(p.movie_id));
    const test = labelled.filter((p) => held.has(p.movie_id));
    if (!train.length || !test.length) continue;
    const w = fitLocalReader(train, embedder, lambda).w;
    let ok = 0;
    for (const p of test) {
      let m = 0;
      for (let i = 0; i < w.length; i++) m += w[i]! * (p.a[i]! - p.b[i]!);
      if ((m > 0 ? 'a' : 'b') === p.winner) ok++;
    }
    folds.push({ films: held.size, pairs: test.length, agreement: ok / test.length });
    agree += ok;
    total += test.length;
  }
  const reader = fitLocalReader(labelled, embedder, lambda);
  const cv = total ? agree / total : Number.NaN;
  reader.fitted = { on: 'confident chain pairs', films: films.length, pairs: pairs.length, cv_agreement: cv };
  await embedder.close();
  return { reader, films: films.length, pairs: pairs.length, cv_agreement: cv, folds };
}

export interface ReaderCheck {
  reader: string;
  protocol: 'pairwise';
  pairs: number;
  agree: number;
  unresolved: number;
  agreement: number;
  ci: [number, number];
}

export interface ListwiseReaderCheck {
  reader: string;
  protocol: 'listwise';
  /** Chain images re-inserted into the other images of their chain. */
  insertions: number;
  /** Placed exactly where the chain has them. */
  agree: number;
  /** Placed at most one position off. */
  within_one: number;
  mean_abs_error: number;
  unresolved: number;
  agreement: number;
  ci: [number, number];
  /** The wording the reader was asked in: kfbench | release | file, and the template's hash. */
  prompt: { source: string; version: string; not_placed: string[] };
}

export interface ReaderCheckOptions {
  data: string;
  /** The layout map the dataset's files are read through (default: the built-in one). */
  layout?: Layout | undefined;
  judge: Judge;
  encoder: ImageEncoder;
  /** A seeded sample of this many items (default: all). */
  sample?: number;
  seed?: number | string;
  /** `--prompt-template FILE` (listwise; default: the release's example, else kfbench's wording — reader-prompt.ts). */
  promptTemplate?: string | undefined;
}

/** What a check reads: the dataset, the rubrics and its items (chain images or pairs), or a seeded sample of them. */
async function checkInputs<T>(o: ReaderCheckOptions, items: (data: string) => Promise<T[]>) {
  const ds = await loadCore(o.data, o.layout);
  const rubrics = await loadRubrics(o.data, o.layout);
  let all = await items(o.data);
  if (o.sample && o.sample < all.length) all = shuffled(all, createRng(o.seed ?? 0)).slice(0, o.sample);
  return { ds, rubrics, items: all };
}

/** The film of a chain, which movies.jsonl must hold. */
function chainFilm(ds: Awaited<ReturnType<typeof loadCore>>, movieId: string) {
  const movie = ds.movies.get(movieId);
  if (!movie)
    throw new BadInputError(`film ${movieId} of chains.jsonl is not in movies.jsonl`, {
      file: ds.paths.chains,
    });
  return movie;
}

/**
 * Listwise agreement: every chain image (or a seeded sample of `sample`) taken out of its chain and
 * inserted back into the other images by one positional question; it agrees when the position
 * answered is the number of images the chain has below it. Unresolved answers count as position 0.
 */
export async function checkReaderListwise(o: ReaderCheckOptions): Promise<ListwiseReaderCheck> {
  const {
    ds,
    rubrics,
    items: held,
  } = await checkInputs(o, async (data) => {
    const out: { movie_id: string; order: string[]; index: number }[] = [];
    for (const [movie_id, f] of [...(await loadChains(data, o.layout))].sort((x, y) =>
      x[0].localeCompare(y[0]),
    ))
      for (const c of f.chains)
        for (let index = 0; index < c.order.length; index++) out.push({ movie_id, order: c.order, index });
    return out;
  });
  const chains = await loadChains(o.data, o.layout);
  const film = (id: string) => filmText(id, ds.movies.get(id), rubrics.get(id));
  const prompt = resolveReaderPrompt(
    o.data,
    () =>
      [...chains].map(([id, f]) => ({ text: film(id), images: new Set(f.chains.flatMap((c) => c.order)) })),
    o.promptTemplate,
  );
  let agree = 0;
  let withinOne = 0;
  let absError = 0;
  let unresolved = 0;
  await Promise.all(
    held.map(async (h) => {
      const movie = chainFilm(ds, h.movie_id);
      const img = (id: string) => o.encoder.fromFile(imagePath(o.data, h.movie_id, id));
      const rest = await Promise.all(h.order.filter((_, i) => i !== h.index).map(img));
      const out = await insertIntoChain(
        o.judge,
        await img(h.order[h.index]!),
        rest,
        heroInstructions(movie, rubrics.get(h.movie_id)),
        'listwise',
        { template: filmTemplate(prompt, film(h.movie_id)), answer: prompt.answer },
      );
      const truth = h.order.length - 1 - h.index;
      if (out.unresolved) unresolved++;
      if (out.position === truth) agree++;
      if (Math.abs(out.position - truth) <= 1) withinOne++;
      absError += Math.abs(out.position - truth);
    }),
  );
  const n = held.length;
  return {
    reader: o.judge.name,
    protocol: 'listwise',
    insertions: n,
    agree,
    within_one: n ? withinOne / n : Number.NaN,
    mean_abs_error: n ? absError / n : Number.NaN,
    unresolved,
    agreement: n ? agree / n : Number.NaN,
    ci: wilson(agree, n),
    prompt: { source: prompt.source, version: prompt.version, not_placed: prompt.not_placed },
  };
}

/** A reader's agreement with the chains' confident pairs (a seeded sample of `sample`, or all). */
export async function checkReader(o: ReaderCheckOptions): Promise<ReaderCheck> {
  const { ds, rubrics, items: pairs } = await checkInputs(o, confidentPairs);
  let agree = 0;
  let unresolved = 0;
  // every pair at once (the judge bounds the calls in flight); the first failure stops the rest
  await runPool(
    pairs,
    async (p, _i, signal) => {
      const movie = chainFilm(ds, p.movie_id);
      const [a, b] = await Promise.all([
        o.encoder.fromFile(imagePath(o.data, p.movie_id, p.a)),
        o.encoder.fromFile(imagePath(o.data, p.movie_id, p.b)),
      ]);
      const r = await comparePair(
        o.judge.withSignal(signal),
        a,
        b,
        heroInstructions(movie, rubrics.get(p.movie_id)),
      );
      if (r.status === 'unresolved') unresolved++;
      else if ((r.winner === 'A' ? p.a : p.b) === p.winner) agree++;
    },
    { concurrency: Math.max(1, pairs.length) },
  );
  return {
    reader: o.judge.name,
    protocol: 'pairwise',
    pairs: pairs.length,
    agree,
    unresolved,
    agreement: pairs.length ? agree / pairs.length : Number.NaN,
    ci: wilson(agree, pairs.length),
  };
}
