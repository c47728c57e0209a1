/**
 * One name per cache: `--judge-cache` (judge answers) and `--scan-cache` (video scans) wherever they
 * apply, `--cache` still taken with a deprecation line; and the scan cache shared by `compass score`
 * and `compass evaluate` by default, so evaluating after scoring decodes nothing again.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { media, tempDir } from '../support/paths.js';

let emu: Emulator;
let dir = '';
let cases = '';
beforeAll(async () => {
  const p = await sharedMiniCompass();
  emu = await startEmulator();
  dir = tempDir('kfbench-cache-flags-');
  cases = oneCaseFile(p, 'ot-03', dir);
  mkdirSync(join(dir, 'videos', 'faithful'), { recursive: true });
  copyFileSync(
    join(p.videos, 'faithful', 'ot-03__minimal.mp4'),
    join(dir, 'videos', 'faithful', 'ot-03__minimal.mp4'),
  );
});
afterAll(async () => emu?.close());

const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('--judge-cache and --scan-cache', () => {
  it('help names each cache for what it is', async () => {
    const score = flat((await runCli(['compass', 'score', '--help'])).stdout);
    expect(score).toContain('--scan-cache <file>');
    expect(score).toContain('--no-scan-cache');
    expect(score).not.toMatch(/--cache <file>/);
    const evaluate = flat((await runCli(['compass', 'evaluate', '--help'])).stdout);
    expect(evaluate).toContain('--judge-cache <file>');
    expect(evaluate).toContain('--scan-cache <file>');
    expect(evaluate).not.toMatch(/ --cache <file>/);
    const hero = flat((await runCli(['hero', 'evaluate', '--help'])).stdout);
    expect(hero).toContain('--judge-cache <file>');
  });

  it('compass evaluate after compass score in one folder decodes nothing again (the scan cache is shared)', async () => {
    const common = [
      '--cases',
      cases,
      '--videos',
      join(dir, 'videos'),
      '--model',
      'faithful',
      '--modes',
      'minimal',
    ];
    const score = await runCli(['compass', 'score', ...common, '--out', join(dir, 'compass-response')]);
    expect(score.code, score.stderr).toBe(0);
    expect(score.stdout).toMatch(/1 videos scanned, 0 from the scan cache/);
    expect(existsSync(join(dir, '.cache', 'kfbench', 'scan-cache.sqlite'))).toBe(true);
    const evaluate = await runCli([
      ...['compass', 'evaluate', ...common, '--out', join(dir, 'compass-eval')],
      ...['--segmenter', 'pixel', '--judge', `openai:kfbench-emulator@${emu.url}`],
    ]);
    expect(evaluate.code, evaluate.stderr).toBe(0);
    expect(evaluate.stderr).toMatch(/^scan: finished 1\/1 videos in .*\(1 cached\)/m);
  });

  it('--judge-cache FILE is the judge cache; --cache FILE still is, with one deprecation line', async () => {
    const judge = ['judge', 'pair', media('base.png'), media('blur.png')];
    const spec = ['--judge', `openai:kfbench-emulator@${emu.url}`, '--json'];
    const file = join(dir, 'answers.sqlite');
    const first = await runCli([...judge, ...spec, '--judge-cache', file]);
    expect(first.code, first.stderr).toBe(0);
    // the one line: the judge is the emulator (issue 57 item 5)
    const note = /^note: openai:kfbench-emulator@.*: the judge is kfbench's VLM emulator, not a model/;
    expect(first.stderr.trim().split('\n')).toEqual([expect.stringMatching(note)]);
    expect(JSON.parse(first.stdout)).toMatchObject({ calls: 2, cached: 0 });
    const old = await runCli([...judge, ...spec, '--cache', file]);
    expect(old.code, old.stderr).toBe(0);
    expect(JSON.parse(old.stdout)).toMatchObject({ calls: 0, cached: 2 });
    expect(old.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/--cache is deprecated.*--judge-cache/),
      expect.stringMatching(note),
    ]);
  });
});
