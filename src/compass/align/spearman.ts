/**
 * `compass align`'s model-level Spearman in one dimension (SPEC §3.4; seed D: "model-level Spearman
 * correlations use all annotations and exact two-sided tests over 120 permutations"): human win
 * rates against mean automatic scores, with an exact permutation p for up to 9 models and an
 * asymptotic one above, and a case-clustered bootstrap interval (a case drawn k times enters the
 * automatic means k times). A model's automatic mean is over the cases where humans judged it in
 * that dimension; the other cases are dropped and counted.
 */
import { clusteredBootstrap } from '../../stats/bootstrap.js';
import { spearman, spearmanAsymptoticP, spearmanExactP } from '../../stats/rank.js';
import type { AlignOptions, AlignResult, AutoScore, Judgment } from '../schemas/align.js';
import { winRates } from './votes.js';

/**
 * Mean automatic score of a model in a dimension; with `mult`, only the cases it names, each
 * counted as many times as it was drawn.
 */
export function autoMean(
  scores: readonly AutoScore[],
  model: string,
  dimension: string,
  mult?: ReadonlyMap<string, number>,
): number {
  let s = 0;
  let n = 0;
  for (const x of scores) {
    if (x.model !== model || x.dimension !== dimension) continue;
    const w = mult ? (mult.get(x.case_id) ?? 0) : 1;
    s += w * x.score;
    n += w;
  }
  return n ? s / n : Number.NaN;
}

/** How many times each case was drawn into a clustered resample of `all`. */
export function caseMultiplicity(
  sample: readonly { case_id: string }[],
  all: readonly { case_id: string }[],
): Map<string, number> {
  const count = (xs: readonly { case_id: string }[]) => {
    const m = new Map<string, number>();
    for (const x of xs) m.set(x.case_id, (m.get(x.case_id) ?? 0) + 1);
    return m;
  };
  const full = count(all);
  return new Map([...count(sample)].map(([c, n]) => [c, n / full.get(c)!]));
}

/** Spearman of dimension `d`: its votes `dv`, the models' win rates there, `score` keyed `case|model|dimension`. */
export function modelSpearman(
  dv: readonly Judgment[],
  models: readonly string[],
  rates: Readonly<Record<string, number>>,
  scores: readonly AutoScore[],
  score: ReadonlyMap<string, number>,
  d: string,
  o: AlignOptions,
): AlignResult['spearman'][string] {
  // model-level Spearman: human win rate vs mean automatic score, both over the judged cases only
  const ms = models.filter((m) => rates[m] !== undefined);
  const judgedCases = new Set(dv.map((v) => v.case_id));
  // the cases where humans judged each model in this dimension
  const judgedOf = new Map(
    ms.map((m) => [m, new Set(dv.filter((v) => v.model_a === m || v.model_b === m).map((v) => v.case_id))]),
  );
  const only = (mult: ReadonlyMap<string, number>, m: string) =>
    new Map([...mult].filter(([c]) => judgedOf.get(m)?.has(c)));
  const once = new Map([...judgedCases].map((c) => [c, 1]));
  const counts = {
    cases: judgedCases.size,
    dropped_unjudged: new Set(
      scores.filter((x) => x.dimension === d && !judgedCases.has(x.case_id)).map((x) => x.case_id),
    ).size,
    missing_scores: ms.reduce(
      (a, m) => a + [...(judgedOf.get(m) ?? [])].filter((c) => !score.has(`${c}|${m}|${d}`)).length,
      0,
    ),
  };
  if (ms.length >= 2) {
    const human = ms.map((m) => rates[m]!);
    const auto = ms.map((m) => autoMean(scores, m, d, only(once, m)));
    const rho = spearman(human, auto);
    const b = clusteredBootstrap(
      dv,
      (v) => v.case_id,
      (sample) => {
        const w = winRates(sample, ms);
        const mult = caseMultiplicity(sample, dv);
        const keep = ms.filter((m) => w[m] !== undefined);
        return keep.length >= 2
          ? spearman(
              keep.map((m) => w[m]!),
              keep.map((m) => autoMean(scores, m, d, only(mult, m))),
            )
          : Number.NaN;
      },
      { B: o.B, seed: `${o.seed}/rho/${d}` },
    );
    return {
      rho: Number.isFinite(rho) ? rho : null,
      ...(ms.length <= 9
        ? { p_exact: spearmanExactP(human, auto) }
        : { p_asymptotic: spearmanAsymptoticP(rho, ms.length) }),
      ci: b.ci.every(Number.isFinite) ? b.ci : null,
      ...counts,
    };
  }
  return { rho: null, ci: null, ...counts };
}
