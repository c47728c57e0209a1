/** A plain-text table: a header, a rule, and left-aligned columns two spaces apart. */
export function textTable(head: readonly string[], body: readonly (readonly string[])[]): string[] {
  const width = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => c.padEnd(width[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(width.map((w) => '-'.repeat(w))), ...body.map(line)];
}

/**
 * A breakdown's levels in reading order: numbers by value ("03" before "12"; a JSON object would list
 * the integer-like "12" first), other labels alphabetically.
 */
export function levelEntries<T>(levels: Record<string, T>): [string, T][] {
  const num = (k: string) => (/^\d+(\.\d+)?$/.test(k) ? Number(k) : Number.NaN);
  return Object.entries(levels).sort(([a], [b]) => {
    const x = num(a);
    const y = num(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y || a.localeCompare(b);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
