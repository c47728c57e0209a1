/**
 * Krippendorff's α for nominal, ordinal and interval data, from a raters × units matrix with
 * missing values (null), by the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's
 * Alpha-Reliability"). Units with fewer than two values are dropped; each pairable value of a unit
 * with m_u values contributes 1/(m_u − 1) per ordered pair — for every m_u (some implementations
 * divide by 1 for complete data with more than two raters; that is a bug).
 */
import { BadInputError } from '../errors.js';
export const ALPHA_LEVELS = ['nominal', 'ordinal', 'interval'] as const;
export type AlphaLevel = (typeof ALPHA_LEVELS)[number];

export interface AlphaResult {
  alpha: number;
  units_used: number;
  /** Total number of pairable values. */
  pairable: number;
}

export function krippendorffAlpha(
  matrix: readonly (readonly (number | null)[])[],
  level: AlphaLevel,
): AlphaResult {
  if (matrix.length === 0) throw new BadInputError('α needs at least one rater row');
  const units = matrix[0]!.length;
  for (const row of matrix)
    if (row.length !== units) throw new BadInputError('every rater row must have the same number of units');
  const values = [...new Set(matrix.flatMap((r) => r.filter((v): v is number => v !== null)))].sort(
    (a, b) => a - b,
  );
  const index = new Map(values.map((v, i) => [v, i]));
  const V = values.length;
  const o = Array.from({ length: V }, () => new Float64Array(V));
  let used = 0;
  for (let u = 0; u < units; u++) {
    const vals: number[] = [];
    for (const row of matrix) {
      const v = row[u];
      if (v !== null && v !== undefined) vals.push(index.get(v)!);
    }
    const m = vals.length;
    if (m < 2) continue;
    used++;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) if (i !== j) o[vals[i]!]![vals[j]!]! += 1 / (m - 1);
  }
  const nc = o.map((row) => row.reduce((a, b) => a + b, 0));
  const n = nc.reduce((a, b) => a + b, 0);
  const delta2 = (c: number, k: number): number => {
    if (c === k) return 0;
    switch (level) {
      case 'nominal':
        return 1;
      case 'interval':
        return (values[c]! - values[k]!) ** 2;
      case 'ordinal': {
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        let s = 0;
        for (let g = lo; g <= hi; g++) s += nc[g]!;
        return (s - (nc[c]! + nc[k]!) / 2) ** 2;
      }
    }
  };
  let obs = 0;
  let exp = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) {
      const d = delta2(c, k);
      obs += o[c]![k]! * d;
      exp += nc[c]! * nc[k]! * d;
    }
  }
  const alpha = exp === 0 ? Number.NaN : 1 - ((n - 1) * obs) / exp;
  return { alpha, units_used: used, pairable: n };
}
