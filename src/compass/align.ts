/**
 * `compass align` (SPEC §3.4): human pairwise judgments against automatic per-case scores.
 *  - win rates per dimension and model (a vote for the model 1, a tie ½, a loss 0), with
 *    case-clustered bootstrap 95 % intervals;
 *  - the overall human score per model: the mean of its dimension-level win rates (seed D: "the
 *    overall human score averages the four dimension-level rates");
 *  - agreement of decisive majorities (a strict majority of an item's votes for A or for B; other
 *    items excluded, coverage reported) with the sign of the automatic score difference (a
 *    difference of exactly 0 counts as disagreement; a decisive item whose case has no automatic
 *    score for one of its two models is excluded too, and counted as `unscored`), with a
 *    case-clustered bootstrap 95 % interval;
 *  - model-level Spearman per dimension between human win rates and mean automatic scores, with an
 *    exact permutation p for up to 9 models and an asymptotic one above, and a case-clustered
 *    bootstrap interval (a case drawn k times enters the automatic means k times). The point
 *    estimate and the bootstrap use the same cases: a model's automatic mean in a dimension is over
 *    the cases where humans judged that model in that dimension; cases of the scores file without
 *    such a judgment are dropped and counted (`cases`, `dropped_unjudged`, `missing_scores`);
 *  - Krippendorff's α (nominal) per model pair: annotators × items, each vote coded as the model it
 *    chose or as a tie, so the order in which a pair was shown does not matter; summarised across
 *    pairs (mean, min, max).
 * An item is (case, unordered model pair, dimension).
 */
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import { clusteredBootstrap } from '../stats/bootstrap.js';
import { krippendorffAlpha } from '../stats/krippendorff.js';
import { spearman, spearmanAsymptoticP, spearmanExactP } from '../stats/rank.js';
import { readJsonl } from '../store/jsonl.js';

export const Judgment = z.object({
  case_id: z.string().min(1),
  model_a: z.string().min(1),
  model_b: z.string().min(1),
  dimension: z.string().min(1),
  annotator: z.string().min(1),
  choice: z.enum(['A', 'B', 'Tie']),
});
export type Judgment = z.output<typeof Judgment>;

export const AutoScore = z.object({
  case_id: z.string().min(1),
  model: z.string().min(1),
  dimension: z.string().min(1),
  score: z.number(),
});
export type AutoScore = z.output<typeof AutoScore>;

/**
 * The header row `compass export-scores` writes first: which prompt modes the scores average over
 * (by default the one the human study judged) and why. A scores file without it is read as well.
 */
export const ScoresHeader = z.object({
  header: z.literal('kfbench compass export-scores'),
  prompt_modes: z.array(z.string().min(1)).min(1),
  note: z.string(),
});
export type ScoresHeader = z.output<typeof ScoresHeader>;

/** One line of a scores file: the header (first line only) or a score. */
export const ScoresLine = z.union([ScoresHeader, AutoScore]);

export interface AlignOptions {
  B: number;
  seed: number | string;
}

export interface AlignResult {
  models: string[];
  dimensions: string[];
  win_rates: Record<string, Record<string, number>>;
  win_rates_ci: Record<string, Record<string, [number, number]>>;
  /** Per model: the mean of its dimension-level win rates. */
  overall_human: Record<string, number>;
  agreement: Record<
    string,
    {
      rate: number | null;
      ci: [number, number] | null;
      coverage: number;
      n: number;
      items: number;
      unscored: number;
    }
  >;
  spearman: Record<
    string,
    {
      rho: number | null;
      p_exact?: number;
      p_asymptotic?: number;
      ci: [number, number] | null;
      /** Cases with a human judgment in the dimension: the only ones whose automatic scores enter. */
      cases: number;
      /** Cases of the scores file with a score in the dimension but no human judgment there: left out. */
      dropped_unjudged: number;
      /** (case, model) pairs humans judged that have no automatic score: left out of that model's mean. */
      missing_scores: number;
    }
  >;
  alpha: Record<string, number | null>;
  /** α across model pairs (those with a value). */
  alpha_summary: { mean: number; min: number; max: number; pairs: number } | null;
}

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

/** Read and cross-check both files: every judgment's models and dimension must have scores. */
export async function loadAlignInputs(
  judgmentsFile: string,
  scoresFile: string,
): Promise<{ votes: Judgment[]; scores: AutoScore[] }> {
  const scores: AutoScore[] = [];
  const models = new Set<string>();
  const dims = new Set<string>();
  for await (const l of readJsonl(scoresFile, ScoresLine)) {
    if ('header' in l.value) {
      if (l.line !== 1)
        throw new BadInputError('a header row is allowed only on the first line', {
          file: scoresFile,
          line: l.line,
        });
      continue;
    }
    scores.push(l.value);
    models.add(l.value.model);
    dims.add(l.value.dimension);
  }
  const votes: Judgment[] = [];
  for await (const l of readJsonl(judgmentsFile, Judgment)) {
    const v = l.value;
    const where = { file: judgmentsFile, line: l.line };
    for (const m of [v.model_a, v.model_b])
      if (!models.has(m)) throw new BadInputError(`unknown model ${m} (not in ${scoresFile})`, where);
    if (v.model_a === v.model_b) throw new BadInputError(`model_a and model_b are both ${v.model_a}`, where);
    if (!dims.has(v.dimension))
      throw new BadInputError(`dimension ${v.dimension} has no automatic scores in ${scoresFile}`, where);
    votes.push(v);
  }
  const voted = new Set(votes.flatMap((v) => [v.model_a, v.model_b]));
  if (voted.size < 2)
    throw new BadInputError('needs judgments over at least two models', { file: judgmentsFile });
  return { votes, scores };
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
/** The model a vote chose, or "tie". */
const chosen = (v: Judgment) => (v.choice === 'Tie' ? 'tie' : v.choice === 'A' ? v.model_a : v.model_b);

function winRates(votes: readonly Judgment[], models: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of models) {
    let s = 0;
    let n = 0;
    for (const v of votes) {
      if (v.model_a !== m && v.model_b !== m) continue;
      n++;
      const c = chosen(v);
      s += c === m ? 1 : c === 'tie' ? 0.5 : 0;
    }
    if (n) out[m] = s / n;
  }
  return out;
}

/** `compass align` as one call: the judgments and the scores read from their files, then compared. */
export async function alignFiles(
  judgmentsFile: string,
  scoresFile: string,
  o: AlignOptions,
): Promise<AlignResult> {
  const { votes, scores } = await loadAlignInputs(judgmentsFile, scoresFile);
  return align(votes, scores, o);
}
export function align(
  votes: readonly Judgment[],
  scores: readonly AutoScore[],
  o: AlignOptions,
): AlignResult {
  const dimensions = [...new Set(votes.map((v) => v.dimension))].sort();
  const models = [...new Set(votes.flatMap((v) => [v.model_a, v.model_b]))].sort();
  const score = new Map(scores.map((s) => [`${s.case_id}|${s.model}|${s.dimension}`, s.score]));
  const r: AlignResult = {
    models,
    dimensions,
    win_rates: {},
    win_rates_ci: {},
    overall_human: {},
    agreement: {},
    spearman: {},
    alpha: {},
    alpha_summary: null,
  };
  for (const d of dimensions) {
    const dv = votes.filter((v) => v.dimension === d);
    r.win_rates[d] = winRates(dv, models);
    r.win_rates_ci[d] = {};
    for (const m of Object.keys(r.win_rates[d]!)) {
      const b = clusteredBootstrap(
        dv.filter((v) => v.model_a === m || v.model_b === m),
        (v) => v.case_id,
        (sample) => winRates(sample, [m])[m] ?? Number.NaN,
        { B: o.B, seed: `${o.seed}/win/${d}/${m}` },
      );
      r.win_rates_ci[d]![m] = b.ci;
    }
    // decisive majorities vs the sign of the automatic difference
    const items = new Map<string, Judgment[]>();
    for (const v of dv) {
      const k = `${v.case_id}|${pairKey(v.model_a, v.model_b)}`;
      items.set(k, [...(items.get(k) ?? []), v]);
    }
    // per item: null when not decisive, else whether the automatic difference agrees
    const verdicts: { case_id: string; agrees: boolean | null }[] = [];
    let unscored = 0;
    for (const item of items.values()) {
      const tally = new Map<string, number>();
      for (const v of item) tally.set(chosen(v), (tally.get(chosen(v)) ?? 0) + 1);
      const winner = [...tally.entries()].find(([c, n]) => c !== 'tie' && n > item.length / 2)?.[0];
      if (!winner) {
        verdicts.push({ case_id: item[0]!.case_id, agrees: null });
        continue;
      }
      const loser = item[0]!.model_a === winner ? item[0]!.model_b : item[0]!.model_a;
      const sw = score.get(`${item[0]!.case_id}|${winner}|${d}`);
      const sl = score.get(`${item[0]!.case_id}|${loser}|${d}`);
      // a case the automatic side did not measure for one of the two (export-scores leaves it out) says nothing
      if (sw === undefined || sl === undefined) {
        unscored++;
        verdicts.push({ case_id: item[0]!.case_id, agrees: null });
        continue;
      }
      verdicts.push({ case_id: item[0]!.case_id, agrees: sw - sl > 0 });
    }
    const rate = (xs: readonly { agrees: boolean | null }[]) => {
      const dec = xs.filter((x) => x.agrees !== null);
      return dec.length ? dec.filter((x) => x.agrees).length / dec.length : Number.NaN;
    };
    const decisive = verdicts.filter((x) => x.agrees !== null).length;
    const agreeCi = decisive
      ? clusteredBootstrap(verdicts, (x) => x.case_id, rate, { B: o.B, seed: `${o.seed}/agree/${d}` }).ci
      : null;
    r.agreement[d] = {
      rate: decisive ? rate(verdicts) : null,
      ci: agreeCi?.every(Number.isFinite) ? agreeCi : null,
      coverage: items.size ? decisive / items.size : 0,
      n: decisive,
      items: items.size,
      unscored,
    };
    // model-level Spearman: human win rate vs mean automatic score, both over the judged cases only
    const ms = models.filter((m) => r.win_rates[d]![m] !== undefined);
    const judgedCases = new Set(dv.map((v) => v.case_id));
    // the cases where humans judged each model in this dimension
    const judgedOf = new Map(
      ms.map((m) => [m, new Set(dv.filter((v) => v.model_a === m || v.model_b === m).map((v) => v.case_id))]),
    );
    const only = (mult: ReadonlyMap<string, number>, m: string) =>
      new Map([...mult].filter(([c]) => judgedOf.get(m)!.has(c)));
    const once = new Map([...judgedCases].map((c) => [c, 1]));
    const counts = {
      cases: judgedCases.size,
      dropped_unjudged: new Set(
        scores.filter((x) => x.dimension === d && !judgedCases.has(x.case_id)).map((x) => x.case_id),
      ).size,
      missing_scores: ms.reduce(
        (a, m) => a + [...judgedOf.get(m)!].filter((c) => !score.has(`${c}|${m}|${d}`)).length,
        0,
      ),
    };
    if (ms.length >= 2) {
      const human = ms.map((m) => r.win_rates[d]![m]!);
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
      r.spearman[d] = {
        rho: Number.isFinite(rho) ? rho : null,
        ...(ms.length <= 9
          ? { p_exact: spearmanExactP(human, auto) }
          : { p_asymptotic: spearmanAsymptoticP(rho, ms.length) }),
        ci: b.ci.every(Number.isFinite) ? b.ci : null,
        ...counts,
      };
    } else r.spearman[d] = { rho: null, ci: null, ...counts };
  }
  for (const m of models) {
    const ws = dimensions.map((d) => r.win_rates[d]![m]).filter((w): w is number => w !== undefined);
    if (ws.length) r.overall_human[m] = ws.reduce((a, b) => a + b, 0) / ws.length;
  }
  // Krippendorff's α (nominal) per model pair, over every dimension's items
  const pairs = [...new Set(votes.map((v) => pairKey(v.model_a, v.model_b)))].sort();
  for (const pk of pairs) {
    const pv = votes.filter((v) => pairKey(v.model_a, v.model_b) === pk);
    const units = [...new Set(pv.map((v) => `${v.case_id}|${v.dimension}`))].sort();
    const annotators = [...new Set(pv.map((v) => v.annotator))].sort();
    const [m1] = pk.split('|');
    const code = (v: Judgment) => (chosen(v) === 'tie' ? 0 : chosen(v) === m1 ? 1 : 2);
    const matrix = annotators.map((a) =>
      units.map((u) => {
        const v = pv.find((x) => x.annotator === a && `${x.case_id}|${x.dimension}` === u);
        return v ? code(v) : null;
      }),
    );
    try {
      const a = krippendorffAlpha(matrix, 'nominal').alpha;
      r.alpha[pk] = Number.isFinite(a) ? a : null;
    } catch {
      r.alpha[pk] = null;
    }
  }
  const as = Object.values(r.alpha).filter((a): a is number => a !== null);
  if (as.length)
    r.alpha_summary = {
      mean: as.reduce((a, b) => a + b, 0) / as.length,
      min: Math.min(...as),
      max: Math.max(...as),
      pairs: as.length,
    };
  return r;
}
