/**
 * Issue 54 item 6, HeroFrame: the distance from random to human a method closes. The card: "Random
 * frames land at 0.501 … Human publicity stills reach 0.722. The strongest method measured so far
 * reaches 0.586 — 38% of the way from random to human."
 */
import { describe, expect, it } from 'vitest';
import { randomToHuman } from '../../src/hero/random-to-human.js';
import type { MethodSummary } from '../../src/hero/results.js';
import { heroMarkdown, heroTable } from '../../src/report/hero.js';

const row = (method: string, S: number, official = false): MethodSummary => ({
  method,
  reader: 'r',
  S,
  S_at_k: { '1': S, '5': S },
  top1_rate: 0,
  beat_still_rate: 0,
  ci: { S: [S, S] },
  films: official ? null : 2,
  insertions: official ? null : 10,
  unresolved: official ? null : 0,
  ...(official ? { official: true } : {}),
});

describe('from random to human (the card\'s "38% of the way")', () => {
  it("the card's own numbers give its 38 %", () => {
    const r = randomToHuman([row('random', 0.501, true), row('stills', 0.722), row('best', 0.586, true)])!;
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]!.share).toBeCloseTo(0.085 / 0.221, 12);
    expect(Math.round(100 * r.rows[0]!.share)).toBe(38);
  });

  it('the reports print it; without a random or a stills row there is nothing to say', () => {
    const data = {
      reader: 'r',
      protocol: 'listwise',
      methods: [row('uniform', 0.55), row('stills', 0.722), row('random', 0.501)],
      official: [],
      warnings: [],
      paired: [],
    };
    expect(heroTable(data)).toMatch(/^ {2}uniform: S 0\.550, 22\.2 % of the way$/m);
    expect(heroMarkdown(data)).toContain('- uniform: S 0.550, 22.2 % of the way');
    expect(randomToHuman([row('uniform', 0.55), row('random', 0.5)])).toBeUndefined();
    expect(heroTable({ ...data, methods: [row('uniform', 0.55)] })).not.toMatch(/of the way/);
  });
});
