/**
 * Equal error rate. A score ≥ t counts as positive; FPR = negatives ≥ t / negatives,
 * FNR = positives < t / positives. The ROC points are walked from t = +∞ down through every
 * distinct score; at the first point where FNR − FPR ≤ 0 the EER is that point's rate when the
 * difference is exactly 0, else the linear interpolation with the previous point (the EER is the
 * interpolated FPR, and the threshold is interpolated likewise).
 */
import { BadInputError } from '../errors.js';
export interface Scored {
  score: number;
  label: 0 | 1;
}

export interface Rates {
  threshold: number;
  fpr: number;
  fnr: number;
}

export function ratesAt(data: readonly Scored[], t: number): Rates {
  const { pos, neg } = counts(data);
  let fp = 0;
  let fn = 0;
  for (const d of data) {
    if (d.label === 0 && d.score >= t) fp++;
    if (d.label === 1 && d.score < t) fn++;
  }
  return { threshold: t, fpr: fp / neg, fnr: fn / pos };
}

function counts(data: readonly Scored[]): { pos: number; neg: number } {
  const pos = data.filter((d) => d.label === 1).length;
  const neg = data.length - pos;
  if (pos === 0 || neg === 0) throw new BadInputError('the EER needs at least one positive and one negative');
  return { pos, neg };
}

export function equalErrorRate(data: readonly Scored[]): { eer: number; threshold: number } {
  counts(data);
  const thresholds = [...new Set(data.map((d) => d.score))].sort((a, b) => b - a);
  let prev: Rates = { threshold: Number.POSITIVE_INFINITY, fpr: 0, fnr: 1 };
  for (const t of thresholds) {
    const cur = ratesAt(data, t);
    const diff = cur.fnr - cur.fpr;
    if (diff <= 0) {
      if (diff === 0) return { eer: cur.fpr, threshold: t };
      const dPrev = prev.fnr - prev.fpr; // > 0
      const w = dPrev / (dPrev - diff); // fraction of the way from prev to cur
      const eer = prev.fpr + w * (cur.fpr - prev.fpr);
      const threshold = Number.isFinite(prev.threshold) ? prev.threshold + w * (t - prev.threshold) : t;
      return { eer, threshold };
    }
    prev = cur;
  }
  return { eer: prev.fpr, threshold: prev.threshold };
}
