import { describe, expect, it } from 'vitest';
import { PairAnswer } from '../../src/judge/pairwise.js';
import { parseReply } from '../../src/judge/parse.js';

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
