/**
 * HTML built with a tagged template that escapes every interpolated value unless it is already
 * `Html` (made by this template or by `raw` for our own constants). Titles, rubric sentences and
 * judge reasons come from models and strangers, so escaping is the default, not a habit.
 */
import { esc } from '../report/escape.js';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(p: Part): string {
  if (p === null || p === undefined || p === false) return '';
  if (p instanceof Html) return p.value;
  if (Array.isArray(p)) return p.map(render).join('');
  return esc(p);
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Markup we wrote ourselves (never data). */
export function raw(s: string): Html {
  return new Html(s);
}

/** A URL for an attribute: relative links only (no `javascript:` from data), each segment encoded. */
export function href(...segments: string[]): string {
  return segments.map((s) => encodeURIComponent(s)).join('/');
}

export const f3 = (x: number | null | undefined): string =>
  typeof x === 'number' && Number.isFinite(x) ? x.toFixed(3) : '—';
