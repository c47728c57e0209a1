/**
 * HTML escaping for everything rendered from data (titles, reasons and method names come from
 * strangers). Kept beside Hono's `html` (which the viewer's templates use, web/html.ts; issue 47
 * item 7): the reports build Markdown (`mdText`) and standalone HTML files from plain strings, and
 * Hono exposes its escaping only through the tagged template (its `escapeToBuffer` is an internal
 * buffer API). Both write the same bytes: `& < > " '` as `&amp; &lt; &gt; &quot; &#39;`
 * (test/web/html-escape.test.ts).
 */
export function esc(s: unknown): string {
  return String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * Text from data inside Markdown (a table cell, a heading, a line of prose): HTML-significant
 * characters become entities (Markdown renderers pass raw HTML through), the punctuation that
 * could open a link, an image or a code span is backslash-escaped, `|` cannot end a table cell,
 * and line breaks become spaces so a name cannot break its row or start a block.
 */
export function mdText(s: unknown): string {
  return esc(String(s))
    .replace(/[\\`[\]|]/g, (c) => `\\${c}`)
    .replace(/\r\n|[\r\n\u2028\u2029\v\f]/g, ' ');
}

export function csvCell(v: unknown): string {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v ?? '');
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
