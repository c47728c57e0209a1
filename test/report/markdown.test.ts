/** Markdown outputs are safe to open: names from strangers cannot inject HTML, links or table rows. */
import { describe, expect, it } from 'vitest';
import type { Leaderboard, ModelOverall } from '../../src/compass/schemas/leaderboard.js';
import type { MethodSummary } from '../../src/hero/evaluate/evaluate.js';
import { leaderboardCsv, leaderboardMarkdown } from '../../src/report/compass.js';
import { heroHtml, heroMarkdown, perFilmCsv } from '../../src/report/hero.js';

const EVIL = '<img src=x onerror=alert(1)>|x\nfake | row | [click](javascript:alert(1)) `code`';

const method = (name: string, S: number): MethodSummary => ({
  method: name,
  reader: 'openai:m',
  S,
  S_at_k: { '1': S, '5': S },
  top1_rate: 0.1,
  beat_still_rate: 0.2,
  ci: { S: [S - 0.1, S + 0.1] },
  films: 2,
  insertions: 10,
  unresolved: 0,
});

/** Every line of each Markdown table has as many unescaped `|` as that table's header. */
function checkTable(md: string): void {
  const pipes = (l: string) => l.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length;
  let head: string | undefined;
  let rows = 0;
  for (const l of md.split('\n')) {
    if (!l.startsWith('|')) {
      head = undefined;
      continue;
    }
    head ??= l;
    rows++;
    expect(pipes(l), l).toBe(pipes(head));
  }
  expect(rows).toBeGreaterThan(3);
}

function checkSafe(md: string): void {
  expect(md).not.toMatch(/<img|<script|onerror=alert\(1\)>/);
  expect(md).not.toMatch(/(^|[^\\])\[click(\\)?\]\(/);
  expect(md).toContain(
    '&lt;img src=x onerror=alert(1)&gt;\\|x fake \\| row \\| \\[click\\](javascript:alert(1)) \\`code\\`',
  );
  checkTable(md);
}

describe('Markdown escaping', () => {
  it('report.md: a method, reader, pair and warning from strangers stay text in one row', () => {
    const d = {
      reader: `r${EVIL}`,
      protocol: 'pairwise',
      methods: [method(EVIL, 0.6), method('uniform', 0.5)],
      official: [],
      warnings: [`warn ${EVIL}`],
      paired: [{ a: EVIL, b: 'uniform', diff: 0.1, ci: [0, 0.2] as [number, number], p: 0.04 }],
    };
    const md = heroMarkdown(d);
    checkSafe(md);
    expect(md.split('\n').filter((l) => l.startsWith('> warning:'))).toHaveLength(1);
    // the HTML page escapes the same names once (no double entities)
    const html = heroHtml(d, []);
    expect(html).toContain('<td>&lt;img src=x onerror=alert(1)&gt;|x\nfake | row');
    expect(html).not.toContain('&amp;lt;');
    // CSV quoting is unchanged
    expect(
      perFilmCsv([
        {
          method: EVIL,
          movie_id: 'm',
          S: 1,
          top1_rate: 0,
          beat_still_rate: 0,
          insertions: 1,
          unresolved: 0,
        } as never,
      ]),
    ).toContain(`"${EVIL}",m,1`);
  });

  it('compass report --format md: a model name and a factor level stay text in one row', () => {
    const m = (model: string): ModelOverall => ({
      model,
      overall: 0.5,
      overall_sd: 0,
      runs: 1,
      cases: 3,
      flagged: [],
      groups: { keyframe_fidelity: 0.5 },
      below_rate: [`${EVIL}/case__minimal.mp4 at 2 fps`],
      coverage: { present: 3, expected: 3 },
    });
    const lb: Leaderboard = {
      judge: `j${EVIL}`,
      embedder: 'builtin',
      runs: 1,
      missing: 'zero',
      models: [m(EVIL), m('plain')],
      by: { keyframes: {}, structure: { [EVIL]: [m(EVIL)] }, prompt_mode: {}, conditioning: {} },
    };
    const md = leaderboardMarkdown(lb);
    checkSafe(md);
    expect(md).toMatch(/^## structure = &lt;img/m);
    expect(leaderboardCsv(lb)).toContain(`"${EVIL}"`);
  });
});
