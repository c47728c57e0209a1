/**
 * `compass align`'s Krippendorff's α (nominal) per model pair (seed D: "Krippendorff's α is
 * summarized across ten model pairs"): annotators × items, each vote coded as the model it chose or
 * as a tie, so the order in which a pair was shown does not matter; summarised across pairs (mean,
 * min, max). An item is (case, dimension) within the pair.
 */
import { krippendorffAlpha } from '../../stats/krippendorff.js';
import type { AlignResult, Judgment } from '../schemas/align.js';
import { chosen, pairKey } from './votes.js';

/** α per model pair (null: not defined) and the summary across the pairs with a value. */
export function pairAlphas(votes: readonly Judgment[]): {
  alpha: AlignResult['alpha'];
  summary: AlignResult['alpha_summary'];
} {
  const alpha: AlignResult['alpha'] = {};
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
      alpha[pk] = Number.isFinite(a) ? a : null;
    } catch {
      alpha[pk] = null;
    }
  }
  const as = Object.values(alpha).filter((a): a is number => a !== null);
  const summary = as.length
    ? {
        mean: as.reduce((a, b) => a + b, 0) / as.length,
        min: Math.min(...as),
        max: Math.max(...as),
        pairs: as.length,
      }
    : null;
  return { alpha, summary };
}
