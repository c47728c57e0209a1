/**
 * No silent halving (issue 57 item 2): `compass score` over model folders that hold only one prompt
 * mode scores that mode (saying so on stderr before the table) instead of counting the absent
 * mode's videos as 0; a mode named by --modes with no video is warned about and scored as asked;
 * missing videos are named before the table, a misnamed one with the file likely meant; and
 * `compass score --json` prints the summary.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { ROOT, tempDir } from '../support/paths.js';

let p: MiniCompassPaths;
let dir = '';
let cases = '';

beforeAll(async () => {
  p = await sharedMiniCompass();
  dir = tempDir('kfbench-compass-modes-');
  cases = oneCaseFile(p, 'ot-03', dir);
  // only segment_specific videos
  mkdirSync(join(dir, 'seg', 'faithful'), { recursive: true });
  copyFileSync(
    join(p.videos, 'faithful', 'ot-03__segment_specific.mp4'),
    join(dir, 'seg', 'faithful', 'ot-03__segment_specific.mp4'),
  );
  // both modes, one of them under a misnamed case id
  mkdirSync(join(dir, 'typo', 'faithful'), { recursive: true });
  copyFileSync(
    join(p.videos, 'faithful', 'ot-03__minimal.mp4'),
    join(dir, 'typo', 'faithful', 'ot-03__minimal.mp4'),
  );
  copyFileSync(
    join(p.videos, 'faithful', 'ot-03__segment_specific.mp4'),
    join(dir, 'typo', 'faithful', 'ot-3__segment_specific.mp4'),
  );
});

/** The CLI with stdout and stderr into one file, in the order they were written. */
function interleaved(args: string[]): { code: number; text: string } {
  const file = join(tempDir('kfbench-modes-out-'), 'out.txt');
  const fd = openSync(file, 'w');
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.js'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', fd, fd],
  });
  return { code: r.status ?? -1, text: readFileSync(file, 'utf8') };
}

describe('compass score: the prompt modes present', () => {
  it('only segment_specific videos: scored as they are (presence 1), said before the table', async () => {
    const out = join(dir, 'out-seg');
    const r = interleaved([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'seg'), '--model', 'faithful'],
      ...['--out', out],
    ]);
    expect(r.code, r.text).toBe(0);
    const said = r.text.indexOf('modes: scoring segment_specific only');
    expect(said, r.text).toBeGreaterThanOrEqual(0);
    expect(r.text).toMatch(/no \*__minimal\.mp4 in faithful/);
    expect(r.text).toContain('--modes minimal,segment_specific');
    expect(said).toBeLessThan(r.text.indexOf('presence'));
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.models.faithful.all.metrics.presence).toBe(1);
    expect(summary.models.faithful.coverage).toEqual({ present: 1, expected: 1 });
  });

  it('--json prints the summary (presence 1), the modes note on stderr only', async () => {
    const r = await runCli([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'seg'), '--model', 'faithful'],
      ...['--out', join(dir, 'out-json'), '--json'],
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.summary.models.faithful.all.metrics.presence).toBe(1);
    expect(j.missing).toEqual([]);
    expect(r.stderr).toContain('modes: scoring segment_specific only');
  });

  it('--modes naming the absent mode: warned, and its video scored as missing (exit 5)', async () => {
    const r = interleaved([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'seg'), '--model', 'faithful'],
      ...['--out', join(dir, 'out-asked'), '--modes', 'minimal,segment_specific'],
    ]);
    expect(r.code, r.text).toBe(5);
    expect(r.text).toMatch(/warning: --modes minimal: no \*__minimal\.mp4/);
    const missing = r.text.indexOf('missing: ');
    expect(missing).toBeGreaterThanOrEqual(0);
    expect(missing).toBeLessThan(r.text.indexOf('presence'));
    expect(r.text).toMatch(/1 video\(s\) missing and 0 failed; the other 1 were scored/);
  });

  it('a misnamed video is named with the file likely meant, before the table', async () => {
    const r = interleaved([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'typo'), '--model', 'faithful'],
      ...['--out', join(dir, 'out-typo')],
    ]);
    expect(r.code, r.text).toBe(5);
    const meant = join(dir, 'typo', 'faithful', 'ot-3__segment_specific.mp4');
    expect(r.text).toContain(
      `missing: ${join(dir, 'typo', 'faithful', 'ot-03__segment_specific.mp4')} (did you mean ${meant}?)`,
    );
    expect(r.text.indexOf('missing: ')).toBeLessThan(r.text.indexOf('presence'));
  });
});
