/**
 * `kfbench compass init` on a generated video: a case skeleton that validates and scores as it is;
 * an existing file or a folder without videos is bad input. The docs' complete case line parses
 * with the case schema, and the README holds the walkthrough that test/readme.test.ts runs. On a
 * full disk (a real 256 KB tmpfs) it leaves nothing half-written (issue 46, item 7).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Case } from '../../src/compass/cases/cases.js';
import { ffmpegBinary } from '../../src/media/ffmpeg-processes.js';
import { runCli } from '../support/cli.js';
import { ROOT, tempDir } from '../support/paths.js';

let dir = '';
beforeAll(() => {
  dir = tempDir('kfbench-compass-init-');
  mkdirSync(join(dir, 'my-videos', 'my-generator'), { recursive: true });
  // "your generator's" video: 4 s of a moving test pattern
  execFileSync(ffmpegBinary(), [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=4:size=160x120:rate=24'],
    ...['-pix_fmt', 'yuv420p', join(dir, 'my-videos', 'my-generator', 'walk-01__minimal.mp4')],
  ]);
  mkdirSync(join(dir, 'empty'));
});

describe('kfbench compass init', () => {
  it('writes a skeleton per video that validates and scores at once; never overwrites', async () => {
    const cases = join(dir, 'my-cases', 'cases.jsonl');
    const init = await runCli([
      ...['compass', 'init', '--videos', join(dir, 'my-videos', 'my-generator'), '--out', cases],
    ]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^wrote 1 case skeleton\(s\) to /);
    const c = Case.parse(JSON.parse(readFileSync(cases, 'utf8')));
    expect(c).toMatchObject({ case_id: 'walk-01', structure: 'one_take', duration_s: 4 });
    expect(c.keyframes.map((k) => k.t_target_s)).toEqual([0.667, 2, 3.333]);
    expect(c.prompts.minimal).toMatch(/^TODO:/);
    expect(c.prompts.segment_specific).toMatch(/^TODO:/);
    const valid = await runCli(['compass', 'validate', '--cases', cases]);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toMatch(/^1 cases, 3 keyframes/);
    const score = await runCli([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'my-videos')],
      ...['--model', 'my-generator', '--modes', 'minimal', '--out', join(dir, 'my-scores')],
    ]);
    expect(score.code, score.stderr).toBe(0);
    // its own frames as keyframes: every one is found
    expect(score.stdout).toMatch(/^my-generator\s+1\s+1\/1\s/m);
    const again = await runCli([
      ...['compass', 'init', '--videos', join(dir, 'my-videos', 'my-generator'), '--out', cases],
    ]);
    expect(again.code).toBe(3);
    expect(again.stderr.trim()).toBe(`kfbench: ${cases}: already exists: init writes a new cases file`);
  });

  it('a folder without videos → exit 3 naming it; any keyframe count ≥ 1 (4 too: the published 3, 6, 9, 12 are no rule for own cases), 0 → usage error', async () => {
    const r = await runCli([
      'compass',
      'init',
      '--videos',
      join(dir, 'empty'),
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${join(dir, 'empty')}: holds no .mp4 video`);
    const init = (n: string, out: string) =>
      runCli(['compass', 'init', '--videos', join(dir, 'my-videos'), '--out', out, '--keyframes', n]);
    const four = join(dir, 'four', 'cases.jsonl');
    const k = await init('4', four);
    expect(k.code, k.stderr).toBe(0);
    expect(Case.parse(JSON.parse(readFileSync(four, 'utf8'))).keyframes).toHaveLength(4);
    const v = await runCli(['compass', 'validate', '--cases', four]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toMatch(/^warning: 1 case\(s\) with a keyframe count outside .*: walk-01 \(4\)$/m);
    expect((await init('0', join(dir, 'zero.jsonl'))).code).toBe(2);
  });

  it("the docs' complete case line parses with the case schema; the README walks through init", () => {
    const doc = readFileSync(join(ROOT, 'docs', 'compass.md'), 'utf8');
    const line = /A complete case line[^\n]*\n\n```json\n(.*)\n```/.exec(doc)?.[1];
    expect(line).toBeDefined();
    const c = Case.parse(JSON.parse(line!));
    expect(c.keyframes).toHaveLength(3);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Score your own generator'));
    expect(section).toMatch(/^npx kfbench compass init --videos \S+ --out \S+$/m);
  });
});

describe('kfbench compass init on a full disk', () => {
  const mnt = join(tempDir('kfbench-init-full-'), 'small');
  mkdirSync(mnt);
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt], { stdio: 'ignore' });
    mounted = true;
  } catch {
    // not root, or no tmpfs: the test below is skipped for that reason
  }
  afterAll(() => {
    if (mounted) execFileSync('umount', [mnt]);
  });

  it.skipIf(!mounted)('exit 4 naming the file; neither keyframes/ nor cases.jsonl is left', async () => {
    // a small video's frames fit; a 640×480 noise frame (about 500 KB as PNG) does not
    const videos = join(dir, 'full-videos');
    mkdirSync(videos);
    for (const [name, src] of [
      ['a-01', 'testsrc=duration=2:size=160x120:rate=24'],
      ['big-01', 'testsrc=duration=2:size=640x480:rate=24,noise=alls=100:allf=t'],
    ])
      execFileSync(ffmpegBinary(), [
        ...['-v', 'error', '-f', 'lavfi', '-i', src!],
        ...['-pix_fmt', 'yuv420p', join(videos, `${name}.mp4`)],
      ]);
    const r = await runCli(['compass', 'init', '--videos', videos, '--out', join(mnt, 'cases.jsonl')]);
    expect(r.code, r.stderr).toBe(4);
    // the progress lines, then one error line
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('kfbench:'));
    expect(errors, r.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(
      new RegExp(
        `^kfbench: ${join(mnt, 'keyframes', 'big-01')}/kf0\\d\\.png: cannot write: no space left on the device \\(ENOSPC\\)$`,
      ),
    );
    expect(readdirSync(mnt)).toEqual([]);
  });
});
