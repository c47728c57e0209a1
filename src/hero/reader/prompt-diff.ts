/**
 * The diff `hero prompt --check` prints between the example and the rendered prompt, bounded in
 * time, memory and output (issue 55 item 6: the full LCS table of a 400 KB example against a
 * 20,000-line template took 100 s and 1.95 GB). The lines both share at the start and the end are
 * set apart in linear time (three of them are shown either side, as context); only a middle of at most MAX_TABLE cells is aligned by the LCS table,
 * a larger one is shown as its removed lines then its added lines (a correct diff, not a minimal
 * one). At most MAX_SHOWN lines of it are printed, then how many more there are.
 */
const MAX_TABLE = 4_000_000;
export const MAX_SHOWN = 400;
const CONTEXT = 3;

/** The middle's lines aligned by their longest common subsequence. */
function aligned(x: readonly string[], y: readonly string[]): string[] {
  const w = y.length + 1;
  const L = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      L[i * w + j] =
        x[i] === y[j] ? L[(i + 1) * w + j + 1]! + 1 : Math.max(L[(i + 1) * w + j]!, L[i * w + j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      out.push(` ${x[i++]}`);
      j++;
    } else if (j < y.length && (i === x.length || L[i * w + j + 1]! >= L[(i + 1) * w + j]!))
      out.push(`+${y[j++]}`);
    else out.push(`-${x[i++]}`);
  }
  return out;
}

/** A unified line diff of a and b (the whole text as one hunk; "" when equal), bounded as above. */
export function lineDiff(a: string, b: string, names: [string, string]): string {
  if (a === b) return '';
  const x = a.split('\n');
  const y = b.split('\n');
  let pre = 0;
  while (pre < x.length && pre < y.length && x[pre] === y[pre]) pre++;
  let suf = 0;
  while (suf < x.length - pre && suf < y.length - pre && x[x.length - 1 - suf] === y[y.length - 1 - suf])
    suf++;
  const mx = x.slice(pre, x.length - suf);
  const my = y.slice(pre, y.length - suf);
  const middle =
    (mx.length + 1) * (my.length + 1) <= MAX_TABLE
      ? aligned(mx, my)
      : [...mx.map((l) => `-${l}`), ...my.map((l) => `+${l}`)];
  // one hunk: the middle with up to CONTEXT shared lines either side
  const before = Math.min(CONTEXT, pre);
  const after = Math.min(CONTEXT, suf);
  const body = [
    ...x.slice(pre - before, pre).map((l) => ` ${l}`),
    ...middle,
    ...x.slice(x.length - suf, x.length - suf + after).map((l) => ` ${l}`),
  ];
  const shown = body.slice(0, MAX_SHOWN);
  if (body.length > MAX_SHOWN) shown.push(`… ${body.length - MAX_SHOWN} more lines of the diff not shown`);
  const start = pre - before + 1;
  const head = `@@ -${start},${mx.length + before + after} +${start},${my.length + before + after} @@`;
  return `${[`--- ${names[0]}`, `+++ ${names[1]}`, head, ...shown].join('\n')}\n`;
}
