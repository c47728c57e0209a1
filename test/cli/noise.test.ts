/**
 * Normal runs without noise: --help marks required options (as docs/cli.md does), breakdown levels
 * read in numeric order ("keyframes = 03" before "12", where a JSON object lists "12" first), and
 * the check that the levels helper orders numbers by value.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { levelEntries } from '../../src/report/table.js';
import { runCli } from '../support/cli.js';
import { ROOT, tempDir } from '../support/paths.js';

describe('noise on normal runs', () => {
  it('--help marks required options', async () => {
    const r = await runCli(['hero', 'evaluate', '--help']);
    expect(r.code).toBe(0);
    const flat = r.stdout.replace(/\s+/g, ' ');
    for (const flag of ['--selections <files...>', '--data <dir>', '--track <dir>'])
      expect(flat).toMatch(new RegExp(`${flag.replace(/[.<>]/g, '\\$&')} .*?\\(required\\)`));
    // an optional one is not marked
    expect(flat).not.toMatch(/--out <dir> [^-]*\(required\)/);
  });

  it('breakdowns list keyframe counts in numeric order in every report format', async () => {
    const dir = join(tempDir(), 'eval');
    mkdirSync(dir);
    const lb = JSON.parse(
      readFileSync(join(ROOT, 'test', 'fixtures', 'compass', 'eval', 'leaderboard.json'), 'utf8'),
    );
    lb.by.keyframes['12'] = lb.by.keyframes['03'];
    writeFileSync(join(dir, 'leaderboard.json'), JSON.stringify(lb));
    for (const [format, re] of [
      ['md', /keyframes = (\d+)/g],
      ['html', /keyframes = (\d+)/g],
      ['csv', /^\w+,keyframes,(\d+),/gm], // the table column first
    ] as const) {
      const r = await runCli(['compass', 'report', '--eval', dir, '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      const levels = [...new Set([...r.stdout.matchAll(re)].map((m) => m[1]))];
      expect(levels, format).toEqual(['03', '06', '12']);
    }
  });

  it('levelEntries: numbers by value, other labels alphabetically', () => {
    expect(levelEntries({ '12': 1, '03': 2, '6': 3 }).map(([k]) => k)).toEqual(['03', '6', '12']);
    expect(levelEntries({ one_take: 1, multi_shot: 2 }).map(([k]) => k)).toEqual(['multi_shot', 'one_take']);
  });
});
