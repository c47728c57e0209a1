/** report/: the HeroFrame renderers and the shared table and escaping helpers, on hand-made results. */
import { describe, expect, it } from 'vitest';
import type { HeroSummary, MethodSummary } from '../../src/hero/results.js';
import { csvCell, esc, mdText } from '../../src/report/escape.js';
import { byScore, heroMarkdown, heroTable, perFilmCsv, protocolPhrase } from '../../src/report/hero.js';
import { textTable } from '../../src/report/table.js';

const method = (name: string, S: number | null, extra: Partial<MethodSummary> = {}): MethodSummary => ({
  method: name,
  reader: 'openai:m',
  S,
  S_at_k: { '1': S, '5': S },
  top1_rate: S === null ? null : 0.25,
  beat_still_rate: S === null ? null : 0.5,
  ci: { S: S === null ? [null, null] : [S - 0.1, S + 0.1] },
  films: S === null ? 0 : 3,
  insertions: S === null ? 0 : 12,
  unresolved: 1,
  ...extra,
});

const summary = (over: Partial<HeroSummary> = {}): HeroSummary => ({
  reader: 'openai:m',
  protocol: 'listwise',
  both_orders: false,
  disagreement_rule: null,
  questions: 24,
  questions_per_insertion: 1,
  disagreement: { checks: 0, disagreed: 0, rate: null },
  methods: [method('uniform', 0.4), method('nothing', null), method('sharpest', 0.7)],
  official: [
    method('published', 0.55, {
      official: true,
      reader: 'gpt',
      ci: { S: [null, null] },
      films: null,
      insertions: null,
      unresolved: null,
    }),
  ],
  paired: [],
  warnings: ['a warning'],
  ...over,
});

describe('the HeroFrame terminal table', () => {
  it('best S first, a method with no S last and shown as —, official rows after with empty counts', () => {
    const lines = heroTable(summary()).split('\n');
    expect(lines[0]).toBe(
      'reader openai:m, protocol listwise, 1.00 questions per insertion, disagreement not measured (one question per insertion; --both-orders measures it)',
    );
    const rows = lines.slice(3, 7).map((l) => l.split(/\s{2,}/));
    expect(rows.map((r) => r[0])).toEqual(['sharpest', 'uniform', 'nothing', 'published (official)']);
    expect(rows[0]).toEqual([
      'sharpest',
      'openai:m',
      '0.700',
      '0.600–0.800',
      '0.700',
      '0.700',
      '0.250',
      '0.500',
      '3',
      '12',
      '1',
    ]);
    expect(rows[2]).toEqual(['nothing', 'openai:m', '—', '—–—', '—', '—', '—', '—', '0', '0', '1']);
    // the official row has no interval and no counts of its own
    expect(lines[6]).toMatch(/^published \(official\)\s+gpt\s+0\.550\s+0\.550\s+0\.550\s+0\.250\s+0\.500$/);
    expect(lines.at(-1)).toBe('warning: a warning');
  });

  it('byScore sorts by S, nulls last, ties by name', () => {
    const ms = [method('b', 0.5), method('z', null), method('a', 0.5), method('c', 0.9), method('y', null)];
    expect([...ms].sort(byScore).map((m) => m.method)).toEqual(['c', 'a', 'b', 'y', 'z']);
  });

  it('the protocol phrase states both orders, questions per insertion and the disagreement measured', () => {
    expect(
      protocolPhrase(
        summary({
          both_orders: true,
          disagreement_rule: 'mean',
          questions_per_insertion: 2,
          disagreement: { checks: 40, disagreed: 3, rate: 3 / 40 },
        }),
      ),
    ).toBe(
      'listwise in both orders (disagreement scored as mean), 2.00 questions per insertion, disagreement 7.5 % (3 of 40 insertions asked in both orders)',
    );
    expect(
      protocolPhrase(
        summary({ protocol: 'pairwise', disagreement: { checks: 10, disagreed: 1, rate: 0.1 } }),
      ),
    ).toMatch(/disagreement 10\.0 % \(1 of 10 comparisons asked in both placements\)$/);
  });
});

describe('report files', () => {
  it('per_film.csv has one row per film score with its header', () => {
    expect(
      perFilmCsv([
        {
          method: 'uniform',
          movie_id: 'm1',
          S: 0.5,
          S_at_k: { '1': 0.5 },
          top1_rate: 0,
          beat_still_rate: 1,
          insertions: 4,
          unresolved: 0,
        },
      ]),
    ).toBe('method,movie_id,S,top1_rate,beat_still_rate,insertions,unresolved\nuniform,m1,0.5,0,1,4,0\n');
  });

  it('report.md lists paired differences with their interval, — where a value is missing', () => {
    const md = heroMarkdown(
      summary({ paired: [{ a: 'sharpest', b: 'uniform', diff: 0.3, ci: [0.1, null], p: null }] }),
    );
    expect(md).toContain('| sharpest | uniform | 0.300 | 0.100–— | — |');
    expect(md).toContain('| nothing | openai:m | — | —–— | — | — | — | — | 0 |');
  });
});

describe('table and escaping helpers', () => {
  it('textTable pads columns to the widest cell, two spaces apart, no trailing space', () => {
    expect(textTable(['a', 'long head'], [['wide cell', 'x'], ['y']])).toEqual([
      'a          long head',
      '---------  ---------',
      'wide cell  x',
      'y',
    ]);
  });

  it('csvCell quotes what needs quoting and leaves a non-finite number empty', () => {
    expect(['a', 'b,c', 'say "hi"', 'two\nlines', 1.5, Number.NaN, null, undefined].map(csvCell)).toEqual([
      'a',
      '"b,c"',
      '"say ""hi"""',
      '"two\nlines"',
      '1.5',
      '',
      '',
      '',
    ]);
  });

  it('esc and mdText make names from strangers inert', () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(mdText('a|b [c](d) `e`\nf')).toBe('a\\|b \\[c\\](d) \\`e\\` f');
  });
});
