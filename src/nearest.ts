/**
 * The valid value a mistyped one most likely means, for every place a value is checked against a
 * list (a flag's words, a method, a config key, an id): one edit distance and one rule, so that
 * `--method unifrom` suggests `uniform` as `--metod` suggests `--method` (commander's own
 * suggestion for options and commands, which this follows: optimal string alignment distance, a
 * swap of two neighbours counting as one edit).
 */

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(
        d[i - 1]![j]! + 1,
        row[j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** Case, `-` and `_` do not count: `API-KEY` means `api_key`. */
const fold = (s: string) => s.toLowerCase().replaceAll('-', '_');

/**
 * The one of `known` nearest to `value` — within a third of its length in edits (at least one), the
 * first in list order on a tie — or undefined when none is that near, or `value` is itself valid.
 */
export function nearest(value: string, known: readonly string[]): string | undefined {
  if (known.includes(value) || value.length > 200) return undefined;
  const v = fold(value);
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const k of known) {
    // far apart in length: not worth the table (and a long value costs nothing)
    if (Math.abs(k.length - v.length) >= bestD) continue;
    const d = editDistance(v, fold(k));
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return bestD <= Math.max(1, Math.floor(v.length / 3)) ? best : undefined;
}

/** ` (did you mean "uniform"?)` after a refused value, or nothing when no valid value is near. */
export function didYouMean(value: string, known: readonly string[]): string {
  const near = nearest(value, known);
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}
