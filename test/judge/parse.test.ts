import { describe, expect, it } from 'vitest';
import { PairAnswer } from '../../src/judge/pairwise.js';
import { jsonCandidates, PARSE_OVER_BUDGET, parseReply } from '../../src/judge/parse.js';
import { createRng } from '../../src/stats/rng.js';

describe('reply parsing', () => {
  it.each([
    ['strict JSON', '{"winner": "B", "reason": "sharper"}', 'B'],
    ['code fences', '```json\n{"winner": "A", "reason": "x"}\n```', 'A'],
    [
      'prose around it',
      'Sure! Here is my answer: {"winner": "B", "reason": "the {brace} in a string"} Hope that helps.',
      'B',
    ],
    ['extra keys ignored', '{"winner": "A", "confidence": 0.9}', 'A'],
  ])('accepts %s', (_, text, winner) => {
    const r = parseReply(text, PairAnswer);
    expect(r).toEqual({ ok: true, value: expect.objectContaining({ winner }) });
  });
  it.each([
    ['an empty reply', '', /empty reply/],
    ['prose only', 'The first one is nicer.', /no JSON object/],
    ['truncated JSON', '{"winner": "A", "rea', /no JSON object/],
    ['a refusal', "I'm unable to compare these images.", /refusal/],
    ['a wrong value', '{"winner": "C"}', /does not match the answer schema/],
  ])('rejects %s with a reason', (_, text, reason) => {
    const r = parseReply(text, PairAnswer);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

/**
 * The extraction before issue 46 (quadratic: from every `{` a fresh scan to the end), kept as the
 * reference the linear one must agree with; `meter` counts its steps as the new one counts its own.
 */
function quadraticCandidates(text: string, meter = { steps: 0 }): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') continue;
    let depth = 0;
    let inStr = false;
    let esc = false;
    for (let j = i; j < text.length; j++) {
      meter.steps++;
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

describe('finding JSON in prose (issue 46, item 3)', () => {
  it('finds what the quadratic scan found, on 30,000 random texts of braces, quotes and escapes', () => {
    const rng = createRng('parse-differential');
    const alphabet = ['{', '}', '"', '\\', 'a', ' ', ':', '1', '{', '}', '"'];
    for (let n = 0; n < 30_000; n++) {
      const len = rng.int(48);
      let text = '';
      for (let k = 0; k < len; k++) text += alphabet[rng.int(alphabet.length)];
      expect(jsonCandidates(text), JSON.stringify(text)).toEqual(quadraticCandidates(text));
    }
  });

  it('parses as the quadratic version did, on 5,000 random replies of answers, prose and fragments', () => {
    // the reply parser before issue 46, on the reference extraction
    const before = (text: string) => {
      const trimmed = text.trim();
      if (trimmed === '') return { ok: false, reason: 'empty reply' };
      let lastError = '';
      for (const c of [trimmed, ...quadraticCandidates(trimmed)]) {
        let json: unknown;
        try {
          json = JSON.parse(c);
        } catch {
          continue;
        }
        const r = PairAnswer.safeParse(json);
        if (r.success) return { ok: true, value: r.data };
        lastError = r.error.issues[0]?.message ?? 'does not match the answer schema';
      }
      if (lastError) return { ok: false, reason: `JSON does not match the answer schema (${lastError})` };
      if (/\b(I can(?:no|')t|I am unable|I'm unable|I won't|cannot assist|can't help)\b/i.test(trimmed))
        return { ok: false, reason: 'refusal' };
      return { ok: false, reason: 'no JSON object in the reply' };
    };
    const rng = createRng('parse-replies');
    const pieces = [
      '{"winner": "A", "reason": "x"}',
      '{"winner": "B"}',
      '{"winner": "C"}',
      '{"reason": 1}',
      '{}',
      '[1]',
      'Sure, ',
      "I can't say. ",
      '{',
      '}',
      '"',
      '\\',
      ' ',
      '```json\n',
    ];
    for (let n = 0; n < 5_000; n++) {
      let text = '';
      for (let k = rng.int(8); k > 0; k--) text += pieces[rng.int(pieces.length)];
      expect(parseReply(text, PairAnswer), JSON.stringify(text)).toEqual(before(text));
    }
  });

  it.each([
    ['an aborted object, then the answer', '{"winner": "A", "reas\n{"winner": "B", "reason": "x"}'],
    [
      'a quote in prose first',
      'He said "wait {" and then {"winner": "A", "reason": "a \\"quoted\\" {word}"}',
    ],
    ['nested objects', 'x {"winner": "B", "why": {"a": {"b": 1}}} y {"z": 2}'],
  ])('the same candidates on a normal reply: %s', (_, text) => {
    expect(jsonCandidates(text)).toEqual(quadraticCandidates(text));
  });

  // 10× the text may cost 10× the steps, not 100× (the old scan: 200,000 `{` took 135 s of CPU)
  it.each([
    ['{', (n: number) => '{'.repeat(n)],
    ['{"', (n: number) => '{"'.repeat(n / 2)],
    ['"', (n: number) => '"'.repeat(n)],
    ['[', (n: number) => '['.repeat(n)],
    ['{\\"', (n: number) => '{"\\"'.repeat(n / 4)],
    ['{}', (n: number) => '{}'.repeat(n / 2)],
    ['prose with braces', (n: number) => 'a { b " c \\" d } { '.repeat(n / 20)],
  ])('linear work on %s × n: 10× the text, at most 12× the steps', (_, make) => {
    const steps = (n: number) => {
      const meter = { steps: 0 };
      const r = parseReply(make(n), PairAnswer, { meter });
      expect(r.ok).toBe(false);
      return meter.steps;
    };
    const small = steps(20_000);
    const large = steps(200_000);
    expect(large / small).toBeLessThanOrEqual(12);
    expect(large).toBeLessThanOrEqual(40 * 200_000);
  });

  it('the same reply, 200,000 `{` then an answer: found, in linear work', () => {
    const meter = { steps: 0 };
    const r = parseReply(`${'{'.repeat(200_000)} {"winner": "A", "reason": "x"}`, PairAnswer, { meter });
    expect(r).toEqual({ ok: true, value: { winner: 'A', reason: 'x' } });
    expect(meter.steps).toBeLessThanOrEqual(40 * 200_000);
  });

  it("a parse is part of the call's time budget: past its deadline, prose is not searched", () => {
    const past = performance.now() - 1;
    // strict JSON, the reply asked for, is still read (one linear parse)
    expect(parseReply('{"winner": "A"}', PairAnswer, { deadline: past }).ok).toBe(true);
    for (const text of ['Sure: {"winner": "A"}', '{'.repeat(200_000)])
      expect(parseReply(text, PairAnswer, { deadline: past })).toEqual({
        ok: false,
        reason: PARSE_OVER_BUDGET,
      });
    // and with time left, the same prose parses
    expect(
      parseReply('Sure: {"winner": "A"}', PairAnswer, { deadline: performance.now() + 3_600_000 }).ok,
    ).toBe(true);
  });
});
