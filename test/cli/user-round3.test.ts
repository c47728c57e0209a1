/**
 * Smaller breaks a new user met (issue 57 item 8): `--json` that prints nothing on failure, a
 * missing video called unreadable, `--videos` at a model's own folder, "the others were scored"
 * when none were, and Ctrl-C under `--no-scan-cache` promising a cache it does not have.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

let p: MiniCompassPaths;
let dir = '';
let cases = '';

beforeAll(async () => {
  p = await sharedMiniCompass();
  dir = tempDir('kfbench-round3-');
  cases = oneCaseFile(p, 'ot-03', dir);
});

describe('--json on failure', () => {
  it('compass validate --json of a bad cases file: one JSON error on stdout, the line on stderr, exit 3', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"case_id": "x"}\n');
    const r = await runCli(['compass', 'validate', '--cases', bad, '--json']);
    expect(r.code, r.stderr).toBe(3);
    const j = JSON.parse(r.stdout);
    expect(j.error.code).toBe('BAD_INPUT');
    expect(j.error.exit_code).toBe(3);
    expect(j.error.file).toBe(bad);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(bad);
  });

  it('without --json, stdout stays empty', async () => {
    const r = await runCli(['compass', 'validate', '--cases', join(dir, 'bad.jsonl')]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
  });
});

describe('compass response --video', () => {
  it('a missing file is "no such file", not "not a readable video"', async () => {
    const nope = join(dir, 'nope.mp4');
    const r = await runCli(['compass', 'response', '--cases', cases, '--case-id', 'ot-03', '--video', nope]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.trim()).toBe(`kfbench: ${nope}: no such file`);
  });
});

describe('compass score --videos', () => {
  it("a model's own folder given as --videos: did you mean its parent", async () => {
    const model = join(p.videos, 'faithful');
    const r = await runCli([
      ...['compass', 'score', '--cases', cases, '--videos', model, '--model', 'faithful'],
      ...['--out', join(dir, 'out-parent')],
    ]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`did you mean its parent: --videos ${p.videos} --model faithful?`);
  });

  it('no video scored: "none was scored", not "the others were scored"', async () => {
    const videos = join(dir, 'broken');
    mkdirSync(join(videos, 'm'), { recursive: true });
    for (const mode of ['minimal', 'segment_specific'])
      writeFileSync(join(videos, 'm', `ot-03__${mode}.mp4`), 'not a video');
    const r = await runCli([
      ...['compass', 'score', '--cases', cases, '--videos', videos, '--model', 'm'],
      ...['--out', join(dir, 'out-broken')],
    ]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/0 video\(s\) missing and 2 failed; none was scored/);
    expect(r.stderr).not.toMatch(/the others were scored/);
  });
});

describe('Ctrl-C under --no-scan-cache', () => {
  it('says nothing was cached, not that answers are', async () => {
    const videos = join(dir, 'many');
    // the same video under many models: the run lasts long enough to be interrupted mid-scan
    for (let m = 0; m < 12; m++) {
      mkdirSync(join(videos, `m${m}`), { recursive: true });
      for (const mode of ['minimal', 'segment_specific'])
        copyFileSync(
          join(p.videos, 'faithful', `ot-03__${mode}.mp4`),
          join(videos, `m${m}`, `ot-03__${mode}.mp4`),
        );
    }
    const models = Array.from({ length: 12 }, (_, m) => `m${m}`);
    const r = await runCli(
      [
        ...['compass', 'score', '--cases', cases, '--videos', videos, '--model', ...models],
        ...['--out', join(dir, 'out-int'), '--no-scan-cache'],
      ],
      {
        env: { KFBENCH_PROGRESS_EVERY_S: '0' },
        onSpawn: (child) => {
          let sent = false;
          child.stderr?.on('data', (c: Buffer) => {
            if (!sent && /scan/.test(c.toString())) {
              sent = true;
              child.kill('SIGINT');
            }
          });
        },
      },
    );
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('nothing was cached (--no-scan-cache), so a new run starts over');
    expect(r.stderr).not.toContain('finished answers are cached');
  });
});
