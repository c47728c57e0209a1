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
