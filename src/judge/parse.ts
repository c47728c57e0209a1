/**
 * Reading a judge's reply: strict JSON is asked for ("The response format requires strict JSON",
 * KeyFrame-Compass §E.4, seed 001; SPEC §1: "answers are asked for as strict JSON"), and the whole
 * reply is read as such first; a JSON object inside prose or code fences is tolerated. A refusal or anything that does not validate is `unparsed` (the caller asks
 * once more, then records the question as unresolved with the raw text).
 *
 * The search for JSON objects in prose is linear in the reply (issue 46: it was quadratic, and a
 * reply of 200,000 `{` took minutes of CPU), and it is part of the call's time budget: past the
 * `deadline` it gives up and the reply is unparsed with that reason.
 */
import type { z } from 'zod';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The work an extraction did (steps of the scan, candidates read): what tests of its growth count. */
export interface ParseMeter {
  steps: number;
}

export interface ParseOptions {
  /**
   * `performance.now()` by which the parse must be done — the end of the call's time budget (the
   * request's timeout). Past it the search for JSON in prose stops and the reply is unparsed.
   */
  deadline?: number | undefined;
  meter?: ParseMeter | undefined;
}

/** The reason of a reply whose parse ran past the call's time budget. */
export const PARSE_OVER_BUDGET = 'parsing the reply ran past the call’s time budget (--timeout)';

const REFUSAL = /\b(I can(?:no|')t|I am unable|I'm unable|I won't|cannot assist|can't help)\b/i;

/** How many characters the scan reads between two looks at the clock. */
const CLOCK_EVERY = 1 << 16;

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** A scanner's state: outside strings, inside one, just after a backslash inside one. */
const OUT = 0;
const STR = 1;
const ESC = 2;

/** Starts (positions of `{`) that close together: a list, or lists of lists after merges. */
type Bucket = (number | Bucket)[];

/**
 * The scans, from different `{`, that are in one state at the current position. From here on they
 * read the text alike, so they share one stack: level k (from the top) holds the starts that close
 * when this track's depth falls k + 1 below where it is now.
 */
interface Track {
  state: number;
  stack: Bucket[];
}

/** Every start in a bucket, merged ones included (each visited once; no recursion: merges nest deep). */
function each(b: Bucket, f: (start: number) => void, meter: ParseMeter): void {
  const todo: Bucket[] = [b];
  for (let next = todo.pop(); next; next = todo.pop())
    for (const x of next) {
      meter.steps++;
      if (typeof x === 'number') f(x);
      else todo.push(x);
    }
}

/**
 * Fold track `b` into `a` (the same state at the same position): their stacks end at the same
 * depth, so the tops line up; the shorter stack's buckets join the longer one's. O(the shorter).
 */
function merge(a: Track, b: Track, meter: ParseMeter): Track {
  const [long, short] = a.stack.length >= b.stack.length ? [a, b] : [b, a];
  const L = long.stack.length;
  const S = short.stack.length;
  for (let k = 1; k <= S; k++) {
    long.stack[L - k]!.push(short.stack[S - k]!);
    meter.steps++;
  }
  return long;
}

/**
 * For each `{` of the text, where the balanced `{...}` starting there ends (-1: it never closes),
 * as a scan from that `{` alone reads it — strings (with their escapes) hide braces, and a scan
 * from another `{` may see strings elsewhere. Scans that reach one state at one position read the
 * rest alike, so at most three are followed at once (one per state): linear in the text.
 * Undefined when the clock passes `deadline`.
 */
function braceEnds(text: string, o: ParseOptions, meter: ParseMeter): Int32Array | undefined {
  const ends = new Int32Array(text.length).fill(-1);
  let tracks: Track[] = [];
  for (let p = 0; p < text.length; p++) {
    if (o.deadline !== undefined && p % CLOCK_EVERY === CLOCK_EVERY - 1 && performance.now() > o.deadline)
      return undefined;
    const c = text.charCodeAt(p);
    let out: Track | undefined;
    for (const t of tracks) {
      meter.steps++;
      if (t.state === OUT) {
        out = t;
        if (c === QUOTE) t.state = STR;
        else if (c === CLOSE) each(t.stack.pop()!, (s) => (ends[s] = p), meter);
      } else if (t.state === STR) {
        if (c === BACKSLASH) t.state = ESC;
        else if (c === QUOTE) t.state = OUT;
      } else t.state = STR;
    }
    if (c === OPEN) {
      // a scan from here starts outside strings: it joins the track outside strings, if any
      if (out && out.state === OUT) out.stack.push([p]);
      else tracks.push({ state: OUT, stack: [[p]] });
    }
    // drop tracks with no start left open; fold tracks now in the same state into one
    const byState: (Track | undefined)[] = [undefined, undefined, undefined];
    for (const t of tracks) {
      if (t.stack.length === 0) continue;
      const seen = byState[t.state];
      byState[t.state] = seen ? merge(seen, t, meter) : t;
    }
    if (tracks.length > 1 || tracks[0]?.stack.length === 0)
      tracks = byState.filter((t): t is Track => t !== undefined);
  }
  return ends;
}

/**
 * Every balanced {...} substring, outermost first, in order of appearance: from the first `{`,
 * its balanced object (then on after it) or, when it never closes, the next `{`.
 */
export function jsonCandidates(
  text: string,
  o: ParseOptions = {},
  meter: ParseMeter = { steps: 0 },
): string[] | undefined {
  const ends = braceEnds(text, o, meter);
  if (!ends) return undefined;
  const out: string[] = [];
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) {
    meter.steps++;
    const j = ends[i]!;
    if (j < 0) continue;
    out.push(text.slice(i, j + 1));
    i = j;
  }
  return out;
}

export function parseReply<S extends z.ZodType>(
  text: string,
  schema: S,
  o: ParseOptions = {},
): Parsed<z.output<S>> {
  const meter = o.meter ?? { steps: 0 };
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty reply' };
  // the last candidate that was JSON but off the schema (its message is read once, at the end: zod
  // builds messages lazily, and most of a hostile reply's candidates fail)
  let lastError: z.ZodError | undefined;
  // a candidate seen before fails as it did then (a reply of `{}{}{}…` is one parse, not thousands)
  const failed = new Map<string, z.ZodError | undefined>();
  const tryOne = (c: string): Parsed<z.output<S>> | undefined => {
    meter.steps += c.length;
    if (failed.has(c)) {
      lastError = failed.get(c) ?? lastError;
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(c);
    } catch {
      failed.set(c, undefined);
      return undefined;
    }
    const r = schema.safeParse(json);
    if (r.success) return { ok: true, value: r.data };
    lastError = r.error;
    failed.set(c, r.error);
    return undefined;
  };
  // the whole reply as strict JSON first: what was asked for, and one linear parse
  const whole = tryOne(trimmed);
  if (whole) return whole;
  const over = () => o.deadline !== undefined && performance.now() > o.deadline;
  if (over()) return { ok: false, reason: PARSE_OVER_BUDGET };
  const candidates = jsonCandidates(trimmed, o, meter);
  if (!candidates) return { ok: false, reason: PARSE_OVER_BUDGET };
  for (const [k, c] of candidates.entries()) {
    if (k % 64 === 63 && over()) return { ok: false, reason: PARSE_OVER_BUDGET };
    const r = tryOne(c);
    if (r) return r;
  }
  if (lastError)
    return {
      ok: false,
      reason: `JSON does not match the answer schema (${lastError.issues[0]?.message ?? 'does not match the answer schema'})`,
    };
  if (REFUSAL.test(trimmed)) return { ok: false, reason: 'refusal' };
  return { ok: false, reason: 'no JSON object in the reply' };
}
