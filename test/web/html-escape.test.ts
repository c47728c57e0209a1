/**
 * The viewer's templates escape with Hono's `html` (src/web/html.ts); the reports' Markdown and
 * standalone HTML keep `esc` (src/report/escape.ts). Both must write the same bytes for the same
 * text (issue 47 item 7), and `raw`/nested templates pass through unescaped.
 */
import { describe, expect, it } from 'vitest';
import { esc } from '../../src/report/escape.js';
import { html, raw } from '../../src/web/html.js';

const TEXTS = [
  `<script>alert("x")</script>`,
  `Tom & Jerry's "café" <b>bold</b> > less`,
  `&amp; already an entity`,
  `no specials at all: é ü — 日本`,
  `'"'"<<>>&&`,
];

describe('HTML escaping', () => {
  it.each(TEXTS)('Hono’s html escapes %j to the same bytes as esc', (t) => {
    expect(html`${t}`.toString()).toBe(esc(t));
    expect(html`<p title="${t}">${t}</p>`.toString()).toBe(`<p title="${esc(t)}">${esc(t)}</p>`);
  });

  it('passes Html through once, flattens arrays, drops null, undefined and false, prints numbers', () => {
    const inner = html`<b>${'<i>'}</b>`;
    const out = html`<div>${inner}${[raw('<hr>'), 'a<b', [1.5, null]]}${undefined}${false}${-0.25}</div>`;
    expect(out.toString()).toBe('<div><b>&lt;i&gt;</b><hr>a&lt;b1.5-0.25</div>');
  });
});
