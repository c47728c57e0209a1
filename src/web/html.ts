/**
 * HTML built with Hono's `html` tagged template (the viewer's web framework, issue 47 item 7), which
 * escapes every interpolated value unless it is already `Html` (made by this template or by `raw`
 * for our own constants). Titles, rubric sentences and judge reasons come from models and
 * strangers, so escaping is the default, not a habit. Hono escapes `& < > " '` as `&amp; &lt; &gt;
 * &quot; &#39;`, the same bytes as `esc` (report/escape.ts), which the reports' Markdown and
 * standalone HTML keep (test/web/html-escape.test.ts compares the two).
 */
import { html as honoHtml, raw as honoRaw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { InternalError } from '../errors.js';

export type Html = HtmlEscapedString;

/** A value in a template: `true` is not one (Hono drops booleans; write a string). */
type Part = Html | string | number | false | null | undefined | readonly Part[];

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  const out = honoHtml(strings, ...values);
  // only a Promise among the values makes Hono's result a Promise, and Part has none
  if (out instanceof Promise) throw new InternalError('web/html: a template rendered asynchronously');
  return out;
}

/** Markup we wrote ourselves (never data). */
export function raw(s: string): Html {
  return honoRaw(s);
}

export const f3 = (x: number | null | undefined): string =>
  typeof x === 'number' && Number.isFinite(x) ? x.toFixed(3) : '—';
