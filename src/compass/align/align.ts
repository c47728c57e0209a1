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
import { BadInputError } from '../../errors.js';
import { clusteredBootstrap } from '../../stats/bootstrap.js';
import { readJsonl } from '../../store/jsonl.js';
import {
  type AlignOptions,
  type AlignResult,
  type AutoScore,
  Judgment,
  ScoresLine,
} from '../schemas/align.js';
import { agreement } from './agreement.js';
import { pairAlphas } from './alpha.js';
import { modelSpearman } from './spearman.js';
import { winRates } from './votes.js';

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
    const rates = winRates(dv, models);
    const cis: Record<string, [number, number]> = {};
    r.win_rates[d] = rates;
    r.win_rates_ci[d] = cis;
    for (const m of Object.keys(rates)) {
      const b = clusteredBootstrap(
        dv.filter((v) => v.model_a === m || v.model_b === m),
        (v) => v.case_id,
        (sample) => winRates(sample, [m])[m] ?? Number.NaN,
        { B: o.B, seed: `${o.seed}/win/${d}/${m}` },
      );
      cis[m] = b.ci;
    }
    r.agreement[d] = agreement(dv, score, d, o);
    r.spearman[d] = modelSpearman(dv, models, rates, scores, score, d, o);
  }
  for (const m of models) {
    const ws = dimensions.map((d) => r.win_rates[d]?.[m]).filter((w): w is number => w !== undefined);
    if (ws.length) r.overall_human[m] = ws.reduce((a, b) => a + b, 0) / ws.length;
  }
  const { alpha, summary } = pairAlphas(votes);
  r.alpha = alpha;
  r.alpha_summary = summary;
  return r;
}
