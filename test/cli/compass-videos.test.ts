/**
 * A wrong `--videos` is bad input, never an all-zero leaderboard: a missing or empty folder, a
 * requested model without a folder, or no video of any requested model → exit 3 with one line naming
 * the folder, and nothing written (not even the default output folder in the current directory).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
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
  dir = tempDir('kfbench-compass-videos-');
  cases = oneCaseFile(p, 'ot-03', dir);
  mkdirSync(join(dir, 'empty'));
  // a model folder holding only another case's video
  mkdirSync(join(dir, 'other', 'faithful'), { recursive: true });
  copyFileSync(
    join(p.videos, 'faithful', 'ot-12__minimal.mp4'),
    join(dir, 'other', 'faithful', 'ot-12__minimal.mp4'),
  );
  writeFileSync(join(dir, 'a-file.mp4'), 'not a folder');
});

/** A command run in a fresh working folder with no --out: it must leave that folder empty. */
async function inFreshFolder(args: string[]) {
  const cwd = tempDir('kfbench-cwd-');
  const r = await runCli(args, { cwd });
  return { ...r, written: readdirSync(cwd) };
}

describe('compass score / evaluate --videos', () => {
  it.each([
    ['no-such-folder', /no such videos folder/],
    ['empty', /the videos folder is empty/],
    ['a-file.mp4', /not a folder/],
    ['other', /holds no video of faithful for these 1 case\(s\)/],
  ])('score --videos %s → exit 3, one line naming it, nothing written', async (name, msg) => {
    const videos = join(dir, name);
    const r = await inFreshFolder([
      'compass',
      'score',
      '--cases',
      cases,
      '--videos',
      videos,
      '--model',
      'faithful',
    ]);
    expect(r.code, r.stderr).toBe(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(videos);
    expect(lines[0]).toMatch(msg);
    expect(r.written).toEqual([]);
  });

  it('a requested model without a folder is named, with what the folder holds', async () => {
    const r = await inFreshFolder([
      ...['compass', 'score', '--cases', cases, '--videos', p.videos, '--model', 'faithful', 'faithfull'],
    ]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/no folder for model faithfull \(the folder holds: .*faithful/);
    expect(r.written).toEqual([]);
  });

  it('evaluate (and its dry run) refuse a missing folder the same way, before any judge call', async () => {
    for (const extra of [[], ['--dry-run']]) {
      const r = await inFreshFolder([
        ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'no-such-folder')],
        ...['--model', 'faithful', '--judge', 'openai:m@http://127.0.0.1:9/v1', ...extra],
      ]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/no-such-folder: no such videos folder/);
      expect(r.written).toEqual([]);
    }
  });

  it.skipIf(!existsSync(join(ROOT, '.git')))(
    'the repository tracks no output folder of a run, and ignores them',
    () => {
      const git = (...a: string[]) => execFileSync('git', ['-C', ROOT, ...a], { encoding: 'utf8' });
      expect(git('ls-files', 'compass-response', 'compass-eval', 'hero-eval')).toBe('');
      for (const d of ['compass-response', 'compass-eval', 'hero-eval'])
        expect(git('check-ignore', `${d}/scan-cache.sqlite`).trim()).toBe(`${d}/scan-cache.sqlite`);
    },
  );
});
