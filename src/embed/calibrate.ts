/**
 * Embedder calibration from labelled image pairs: the equal-error threshold, FPR/FNR there and
 * at a given γ, and how far apart the two classes sit.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import { loadImage } from '../media/image.js';
import { equalErrorRate, ratesAt } from '../stats/eer.js';
import { mean } from '../stats/mean.js';
import { readJsonlAll } from '../store/jsonl.js';
import { cosine, DINOV3_GAMMA, type Embedder, embedTwo } from './embedder.js';

/** One line of a labelled pair file (`embed calibrate --pairs`); paths relative to the file's folder. */
export const CalibrationPair = z.object({
  a: z.string().min(1),
  b: z.string().min(1),
  label: z.union([z.literal(0), z.literal(1)], { error: 'label must be 0 or 1' }),
});
export type CalibrationPair = z.infer<typeof CalibrationPair>;

export interface CalibrationReport {
  eer: number;
  threshold: number;
  at: { threshold: number; fpr: number; fnr: number };
  positives: { n: number; mean_cos: number; min_cos: number };
  negatives: { n: number; mean_cos: number; max_cos: number };
  /**
   * Lowest positive minus highest negative: > 0 when the pairs are cleanly separated (then every
   * threshold in between has zero errors, and the EER threshold is merely its upper end).
   */
  margin: number;
  /** The γ to use: the middle of the margin when separated, else the EER threshold. */
  recommended: number;
}

export async function calibrateFromPairs(
  file: string,
  embedder: Embedder,
  gamma?: number,
): Promise<CalibrationReport> {
  const lines = await readJsonlAll(file, CalibrationPair);
  const base = dirname(file);
  const at = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const scored: { score: number; label: 0 | 1 }[] = [];
  for (const l of lines) {
    const [a, b] = await Promise.all([loadImage(at(l.value.a)), loadImage(at(l.value.b))]);
    const [va, vb] = await embedTwo(embedder, a, b);
    scored.push({ score: cosine(va, vb), label: l.value.label });
  }
  const pos = scored.filter((s) => s.label === 1).map((s) => s.score);
  const neg = scored.filter((s) => s.label === 0).map((s) => s.score);
  if (!pos.length || !neg.length)
    throw new BadInputError('needs at least one pair with label 1 and one with label 0', { file });
  const e = equalErrorRate(scored);
  const g = gamma ?? embedder.defaultThreshold ?? DINOV3_GAMMA;
  const minPos = Math.min(...pos);
  const maxNeg = Math.max(...neg);
  const margin = minPos - maxNeg;
  return {
    margin,
    recommended: margin > 0 ? (minPos + maxNeg) / 2 : e.threshold,
    eer: e.eer,
    threshold: e.threshold,
    at: ratesAt(scored, g),
    positives: { n: pos.length, mean_cos: mean(pos), min_cos: minPos },
    negatives: { n: neg.length, mean_cos: mean(neg), max_cos: maxNeg },
  };
}
