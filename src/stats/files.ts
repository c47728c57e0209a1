/**
 * The statistics of `kfbench stats …`, each computed from the user's file in one call: the file
 * read and checked by its loader (inputs.ts), then the statistic.
 */
import { BadInputError } from '../errors.js';
import { type BradleyTerryResult, fitBradleyTerry, MAX_BT_ITEMS } from './bradley-terry.js';
import { equalErrorRate, type Rates, ratesAt } from './eer.js';
import { loadComparisons, loadPairedSeries, loadRaterMatrix, loadScored } from './inputs.js';
import { type AlphaLevel, krippendorffAlpha } from './krippendorff.js';
import { rankCorrelation } from './rank.js';

/** Bradley–Terry strengths of the comparisons in a JSONL file. */
export async function bradleyTerryOfFile(
  file: string,
  o: { ridge?: number } = {},
): Promise<BradleyTerryResult> {
  const comparisons = await loadComparisons(file);
  const items = new Set(comparisons.flatMap((c) => [c.a, c.b])).size;
  if (items > MAX_BT_ITEMS)
    throw new BadInputError(
      `Bradley–Terry takes at most ${MAX_BT_ITEMS} items, got ${items}: fit subsets (e.g. per film) instead`,
      { file },
    );
  return fitBradleyTerry(comparisons, o);
}

/** Spearman ρ and Kendall τ-b of the paired series in a JSON file. */
export async function rankCorrelationOfFile(file: string) {
  const { x, y } = await loadPairedSeries(file);
  return rankCorrelation(x, y);
}

/** Krippendorff's α of the rater × unit matrix in a JSON file. */
export async function krippendorffAlphaOfFile(file: string, level: AlphaLevel) {
  return krippendorffAlpha(await loadRaterMatrix(file), level);
}

/** The equal error rate of the scored pairs in a JSONL file, and the error rates at `at`. */
export async function equalErrorRateOfFile(
  file: string,
  at: number,
): Promise<{ eer: number; threshold: number; at: Rates }> {
  const data = await loadScored(file);
  const e = equalErrorRate(data);
  return { eer: e.eer, threshold: e.threshold, at: ratesAt(data, at) };
}
