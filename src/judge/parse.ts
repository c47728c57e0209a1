/**
 * Reading a judge's reply: strict JSON is asked for, but a JSON object inside prose or code
 * fences is tolerated. A refusal or anything that does not validate is `unparsed` (the caller asks
 * once more, then records the question as unresolved with the raw text).
 */
import type { z } from 'zod';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const REFUSAL = /\b(I can(?:no|')t|I am unable|I'm unable|I won't|cannot assist|can't help)\b/i;

/** Every balanced {...} substring, outermost first, in order of appearance. */
function jsonCandidates(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') continue;
    let depth = 0;
    let inStr = false;
    let esc = false;
    for (let j = i; j < text.length; j++) {
      const c = text[j]!;
      if (inStr) {
        if (esc) esc = false;
        else if (c === '\\') esc = true;
        else if (c === '"') inStr = false;
        continue;
      }
      if (c === '"') inStr = true;
      else if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          out.push(text.slice(i, j + 1));
          i = j;
          break;
        }
      }
    }
  }
  return out;
}

export function parseReply<S extends z.ZodType>(text: string, schema: S): Parsed<z.output<S>> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty reply' };
  const candidates = [trimmed, ...jsonCandidates(trimmed)];
  let lastError = '';
  for (const c of candidates) {
    let json: unknown;
    try {
      json = JSON.parse(c);
    } catch {
      continue;
    }
    const r = schema.safeParse(json);
    if (r.success) return { ok: true, value: r.data };
    lastError = r.error.issues[0]?.message ?? 'does not match the answer schema';
  }
  if (lastError) return { ok: false, reason: `JSON does not match the answer schema (${lastError})` };
  if (REFUSAL.test(trimmed)) return { ok: false, reason: 'refusal' };
  return { ok: false, reason: 'no JSON object in the reply' };
}
