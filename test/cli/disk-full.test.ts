/**
 * A full disk or a folder that cannot be written is one line naming the path, exit 4 (issue 31),
 * and a command that writes a folder of outputs leaves the previous state: the outputs are written
 * beside the target and moved into place at the end. The full disk is a real file-size limit
 * (`ulimit -f` in the child's shell: a write past it fails with EFBIG, as ENOSPC does); the
 * read-only folder a real tmpfs mounted read-only (only where this runs as root: chmod does not
 * stop root).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { type CliResult, runCli, runCommand } from '../support/cli.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { media, ROOT, tempDir } from '../support/paths.js';

/** The CLI in a shell whose file-size limit is `kib` KiB. */
function runLimited(kib: number, args: string[]): Promise<CliResult> {
  return runCommand('bash', [
    '-c',
    `ulimit -f ${kib} && exec "$0" "$@"`,
    process.execPath,
    join(ROOT, 'dist', 'cli', 'bin.js'),
    ...args,
  ]);
}

const oneLine = (s: string) => s.trim().split('\n').length === 1;

describe('a full disk', () => {
  it('media sample: exit 4 naming the file, no output folder and no staging folder left', async () => {
    const dir = tempDir('kfbench-full-sample-');
    const out = join(dir, 'frames');
    const r = await runLimited(2, ['media', 'sample', media('shots.mp4'), '--fps', '4', '--out', out]);
    expect(r.code, r.stderr).toBe(4);
    expect(oneLine(r.stderr), r.stderr).toBe(true);
    expect(r.stderr).toMatch(new RegExp(`${out}/\\d+\\.jpg: cannot write: .*\\(EFBIG\\)`));
    expect(r.stderr).not.toContain('internal error');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  describe('merge compass', () => {
    let compass: MiniCompassPaths;
    beforeAll(async () => {
      compass = await sharedMiniCompass();
    });

    it('exit 4 naming the file; the merged folder of a previous merge is left as it was', async () => {
      const dir = tempDir('kfbench-full-merge-');
      const [s1, s2] = ['s1', 's2'].map((n) => join(dir, n)) as [string, string];
      const cache = join(dir, 'scans.sqlite');
      for (const [out, shard] of [
        [s1, '1/2'],
        [s2, '2/2'],
      ] as const) {
        const r = await runCli([
          ...['compass', 'score', '--cases', compass.cases, '--videos', compass.videos, '--out', out],
          ...['--model', 'faithful', '--modes', 'minimal', '--case-ids', 'ot-03', 'ms-06'],
          ...['--shard', shard, '--cache', cache],
        ]);
        expect(r.code, r.stderr).toBe(0);
      }
      const merged = join(dir, 'merged');
      mkdirSync(merged);
      writeFileSync(join(merged, 'summary.json'), 'the previous state\n');
      const r = await runLimited(1, ['merge', 'compass', s1, s2, '--out', merged]);
      expect(r.code, r.stderr).toBe(4);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toMatch(/: cannot write: .*\(EFBIG\)/);
      expect(r.stderr).toContain(dir);
      expect(readdirSync(merged)).toEqual(['summary.json']);
      expect(readFileSync(join(merged, 'summary.json'), 'utf8')).toBe('the previous state\n');
      // nothing staged is left beside it
      expect(readdirSync(dir).sort()).toEqual(['merged', 's1', 's2', 'scans.sqlite']);
    });
  });
});

/** A read-only tmpfs at a fresh folder, or undefined where it cannot be mounted (not root). */
function readOnlyTmpfs(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const at = tempDir('kfbench-ro-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', at]);
  return r.status === 0 ? at : undefined;
}

describe('a read-only folder', () => {
  const ro = readOnlyTmpfs();
  afterAll(() => {
    if (ro) spawnSync('umount', [ro]);
  });

  it.runIf(ro)(
    'media sample into it: exit 4, one line naming the folder, read-only file system',
    async () => {
      const r = await runCli([
        'media',
        'sample',
        media('shots.mp4'),
        '--at',
        '0.5',
        '--out',
        join(ro!, 'frames'),
      ]);
      expect(r.code, r.stderr).toBe(4);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toContain(ro!);
      expect(r.stderr).toMatch(/read-only file system \(EROFS\)/);
    },
  );
});
