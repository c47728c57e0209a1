/**
 * The scoring step of `hero evaluate` (SPEC §2.4), a pure function of the insertion records:
 * s(F, C) = images of C placed below F / |C|; per method and film S_f = mean s, S@k over frames of
 * rank ≤ k (the best-ranked frames when none is that high), the top-1 rate (s = 1) and the
 * beat-the-still rate; per method the means over films with a film-bootstrap interval for S;
 * paired differences of S between methods over their common films; the official rows as
 * published; warnings. A mean over nothing is null (never NaN).
 */
import { unresolvedShare } from '../judge/unresolved.js';
import { bootstrap, pairedBootstrap } from '../stats/bootstrap.js';
import { mean, meanOrNull } from '../stats/mean.js';
import type { BaselineRow } from './dataset/schemas.js';
import {
  type FilmScore,
  finiteOrNull,
  type HeroSummary,
  type InsertionRecord,
  type MethodSummary,
} from './results.js';

/** The row of publicity stills inserted into the chains they are not part of (`--include-stills`). */
export const STILL_ROW = 'stills';

export interface ScoreContext {
  /** Method rows in output order (submitted methods, then the stills row when included). */
  methods: readonly string[];
  /** Films in output order (sorted). */
  films: readonly string[];
  /** Every insertion was made (films without a submission then score 0). */
  complete: boolean;
  reader: string;
  protocol: HeroSummary['protocol'];
  bothOrders: boolean;
  disagreement: NonNullable<HeroSummary['disagreement_rule']>;
  official: readonly BaselineRow[];
  bootstrapB: number;
  seed: number | string;
}

/** The questions asked and the self-consistency checks failed, as the summary states them. */
function consistency(
  rs: readonly InsertionRecord[],
  bothOrders: boolean,
  rule: NonNullable<HeroSummary['disagreement_rule']>,
): Pick<
  HeroSummary,
  | 'both_orders'
  | 'disagreement_rule'
  | 'questions'
  | 'questions_per_insertion'
  | 'disagreement'
  | 'unresolved'
> {
  const questions = rs.reduce((a, r) => a + r.questions, 0);
  const checks = rs.reduce((a, r) => a + r.checks, 0);
  const disagreed = rs.reduce((a, r) => a + r.disagreed, 0);
  return {
    both_orders: bothOrders,
    disagreement_rule: bothOrders ? rule : null,
    questions,
    questions_per_insertion: rs.length ? questions / rs.length : 0,
    disagreement: { checks, disagreed, rate: checks ? disagreed / checks : null },
    // unresolved decisions: listwise answers; pairwise/binary comparisons (two questions each)
    unresolved: unresolvedShare(
      rs.reduce((a, r) => a + r.unresolved, 0),
      rs.reduce((a, r) => a + (r.answers !== undefined ? r.answers.length : r.questions / 2), 0),
    ),
  };
}

/** One method on one film; a film a method submitted nothing for scores 0 once the run is complete. */
function filmScores(
  insertions: readonly InsertionRecord[],
  methods: readonly string[],
  films: readonly string[],
  complete: boolean,
): FilmScore[] {
  const out: FilmScore[] = [];
  for (const method of methods)
    for (const film of films) {
      const rs = insertions.filter((r) => r.method === method && r.movie_id === film);
      if (rs.length === 0) {
        if (method !== STILL_ROW && complete)
          out.push({
            method,
            movie_id: film,
            S: 0,
            S_at_k: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
            top1_rate: 0,
            beat_still_rate: 0,
            insertions: 0,
            unresolved: 0,
          });
        continue;
      }
      const best = Math.min(...rs.map((x) => x.rank));
      const atK: Record<string, number> = {};
      for (let k = 1; k <= 5; k++) {
        const sub = rs.filter((r) => r.rank <= k);
        atK[String(k)] = mean((sub.length ? sub : rs.filter((r) => r.rank === best)).map((r) => r.s));
      }
      out.push({
        method,
        movie_id: film,
        S: mean(rs.map((r) => r.s)),
        S_at_k: atK,
        top1_rate: mean(rs.map((r) => (r.position === r.chain_length ? 1 : 0))),
        beat_still_rate: mean(rs.map((r) => (r.above_still ? 1 : 0))),
        insertions: rs.length,
        unresolved: rs.reduce((a, r) => a + r.unresolved, 0),
      });
    }
  return out;
}

/** Means over films per method, with a bootstrap interval for S (seeded per method). */
function methodSummaries(
  perFilm: readonly FilmScore[],
  methods: readonly string[],
  reader: string,
  B: number,
  seed: number | string,
): MethodSummary[] {
  return methods.map((method) => {
    const fs = perFilm.filter((f) => f.method === method);
    const S_at_k: Record<string, number | null> = {};
    for (let k = 1; k <= 5; k++) S_at_k[String(k)] = meanOrNull(fs.map((f) => f.S_at_k[String(k)]!));
    const ci = fs.length
      ? bootstrap(fs, (x) => mean(x.map((f) => f.S)), { B, seed: `${seed}/${method}` }).ci
      : [];
    return {
      method,
      reader,
      S: meanOrNull(fs.map((f) => f.S)),
      S_at_k,
      top1_rate: meanOrNull(fs.map((f) => f.top1_rate)),
      beat_still_rate: meanOrNull(fs.map((f) => f.beat_still_rate)),
      ci: { S: [finiteOrNull(ci[0]), finiteOrNull(ci[1])] },
      films: fs.length,
      insertions: fs.reduce((a, f) => a + f.insertions, 0),
      unresolved: fs.reduce((a, f) => a + f.unresolved, 0),
    };
  });
}

/** S(a) − S(b) over the films both were scored on (at least two), paired bootstrap. */
function pairedDifferences(
  perFilm: readonly FilmScore[],
  methods: readonly string[],
  B: number,
  seed: number | string,
): HeroSummary['paired'] {
  const out: HeroSummary['paired'] = [];
  for (let i = 0; i < methods.length; i++)
    for (let j = i + 1; j < methods.length; j++) {
      const a = perFilm.filter((f) => f.method === methods[i]);
      const b = new Map(perFilm.filter((f) => f.method === methods[j]).map((f) => [f.movie_id, f.S]));
      const common = a.filter((f) => b.has(f.movie_id));
      if (common.length < 2) continue;
      const r = pairedBootstrap(
        common.map((f) => f.S),
        common.map((f) => b.get(f.movie_id)!),
        { B, seed: `${seed}/${methods[i]}/${methods[j]}` },
      );
      out.push({
        a: methods[i]!,
        b: methods[j]!,
        diff: finiteOrNull(r.estimate),
        ci: [finiteOrNull(r.ci[0]), finiteOrNull(r.ci[1])],
        p: finiteOrNull(r.p),
      });
    }
  return out;
}

/** The official rows of eval/baselines.jsonl, shown as published (no interval or counts of ours). */
function officialSummaries(rows: readonly BaselineRow[]): MethodSummary[] {
  return rows.map((r) => ({
    method: r.method,
    reader: r.reader,
    S: r.S,
    S_at_k: r.S_at_k,
    top1_rate: r.top1_rate,
    beat_still_rate: r.beat_still_rate,
    ci: { S: [null, null] },
    films: Array.isArray(r.per_film) ? r.per_film.length : null,
    insertions: null,
    unresolved: null,
    official: true,
  }));
}

/**
 * The summary and per-film rows of a set of insertions — of one run, or of shards merged (the
 * insertions of a method and film in the order they were made, methods and films in output order).
 */
export function scoreInsertions(
  insertions: readonly InsertionRecord[],
  c: ScoreContext,
): { summary: HeroSummary; perFilm: FilmScore[] } {
  const perFilm = filmScores(insertions, c.methods, c.films, c.complete);
  const official = officialSummaries(c.official);
  const warnings: string[] = [];
  const otherReaders = new Map<string, string[]>();
  for (const r of official)
    if (r.reader !== c.reader) otherReaders.set(r.reader, [...(otherReaders.get(r.reader) ?? []), r.method]);
  for (const [reader, ms] of otherReaders) {
    // with --rescore-official every such row has a "(rescored)" twin scored by this reader: no advice to give
    const rescored = ms.every((m) => c.methods.includes(`${m} (rescored)`));
    warnings.push(
      `official row${ms.length > 1 ? 's' : ''} ${ms.join(', ')} ${ms.length > 1 ? 'were' : 'was'} scored by ${reader}, not ${c.reader}: frame-level scores are not comparable across readers (${rescored ? `compare the "(rescored)" row${ms.length > 1 ? 's' : ''}, scored by ${c.reader}` : 'use --rescore-official'})`,
    );
  }
  return {
    summary: {
      reader: c.reader,
      protocol: c.protocol,
      ...consistency(insertions, c.bothOrders, c.disagreement),
      methods: methodSummaries(perFilm, c.methods, c.reader, c.bootstrapB, c.seed),
      official,
      paired: pairedDifferences(perFilm, c.methods, c.bootstrapB, c.seed),
      warnings,
    },
    perFilm,
  };
}
