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
 * and 6 (Phase B: rules whose source anchor — the publicity still of the chain the rule came from —
 * a floor step deleted *in that chain* are moved to `pruned_by_phase_b`) come before the final build, and rubrics.jsonl and
 * stats/rubric_proposals.jsonl are written too. One film's chains are built by `build/film.ts`.
 */
import { existsSync } from 'node:fs';
import { createBuiltinEmbedder } from '../../embed/builtin.js';
import { phaseReporter } from '../../progress.js';
import { meanOrNull } from '../../stats/mean.js';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { sha256Hex } from '../../store/canonical.js';
import { writeJsonFile, writeJsonl } from '../../store/jsonl.js';
import { datasetPaths, imagePath } from '../dataset/layout.js';
import { type HeroDataset, loadCore, loadRubrics } from '../dataset/load.js';
import {
  BuildReport,
  type Criterion,
  FilmChainsRecord,
  type FilmRubric,
  FilmRubricRecord,
  ImageHash,
  RubricProposal,
} from '../dataset/schemas.js';
import { heroInstructions } from '../prompt.js';
import { learnRubric, phaseBFinal } from '../rubric-learn.js';
import { buildFilm, type ChainRow } from './film.js';
import type { BuildOptions } from './options.js';

const STABILITY_MEASURES =
  'a sample of chains re-judged pair by pair in both placements with the letters swapped between the two images and sampling seed 1 (for backends that take a seed): the share of pair outcomes that came out the same, and Kendall τ between the two strength orders (how much an order depends on the labels of the question and, above temperature 0, on sampling; at temperature 0 only the labels vary)';

/** Steps 5 and 6's learning for one film (`--learn-rubric`), from its current rubric `start`. */
function learnFilmRubric(
  o: BuildOptions,
  ds: HeroDataset,
  movie: string,
  movieRow: Parameters<typeof heroInstructions>[0],
  start: readonly Criterion[],
) {
  return learnRubric(
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
    start,
  );
}

export async function buildChains(o: BuildOptions): Promise<BuildReport> {
  const ds = await loadCore(o.data, o.layout);
  const rubrics = await loadRubrics(o.data, o.layout);
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
    unresolved_pairs: o.unresolvedPairs ?? 'error',
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
      ? await learnFilmRubric(o, ds, movie, movieRow, rubrics.get(movie)?.criteria ?? [])
      : undefined;
    const fb = await buildFilm(
      o,
      ds,
      movie,
      heroInstructions(movieRow, learned ? { criteria: learned.criteria } : rubrics.get(movie)),
    );
    if (learned && report.rubric) {
      // Phase B against the final chains only (a still deleted in a learning round may be back)
      const { kept, pruned } = phaseBFinal(learned.criteria, fb);
      rubricRows.push({ movie_id: movie, criteria: kept, pruned_by_phase_b: pruned });
      proposalRows.push(...learned.proposals.map((p) => ({ movie_id: movie, ...p })));
      report.rubric.rounds.push(...learned.rounds.map((r) => ({ movie_id: movie, ...r })));
      report.rubric.rules += kept.length;
      report.rubric.pruned_by_phase_b += pruned.length;
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
  } else if (!existsSync(paths.rubrics))
    // a dataset of your own (hero init) has no rubric: a row per film without rules keeps the
    // published layout whole, so hero validate accepts what hero build wrote (the prompt is the same)
    await writeJsonl(
      paths.rubrics,
      FilmRubricRecord,
      rows.map((r) => ({ movie_id: r.movie_id, criteria: [] })),
    );
  await writeJsonl(paths.imageSha, ImageHash, uniqueSha);
  report.confident_share = report.pairs ? confident / report.pairs : 0;
  report.stability = {
    chains: stabAgree.length,
    agreement: meanOrNull(stabAgree),
    kendall_tau: meanOrNull(stabTau.filter((t) => Number.isFinite(t))),
    measures: STABILITY_MEASURES,
  };
  await writeJsonFile(paths.buildReport, BuildReport, report);
  return report;
}
