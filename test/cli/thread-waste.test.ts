/**
 * No thread pools that only wait (issue 57 item 9): every ffmpeg a scan starts has one filter-graph
 * thread (swscale would slice each small scale over every core, the threads waiting on each other)
 * and OpenBLAS/OpenMP held to one thread (distribution ffmpeg builds load OpenBLAS, whose pool
 * spins in sched_yield in every short run); ffprobe gets the same environment; and the scan's
 * decoder runs one thread unless --decode-threads says otherwise. Checked through logging
 * wrappers in FFMPEG_PATH / FFPROBE_PATH around the real binaries, on a mini video.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

let p: MiniCompassPaths;
let dir = '';
let cases = '';
let log = '';
const env: Record<string, string> = {};

beforeAll(async () => {
  p = await sharedMiniCompass();
  dir = tempDir('kfbench-threads-');
  cases = oneCaseFile(p, 'ot-03', dir);
  log = join(dir, 'runs.log');
  for (const tool of ['ffmpeg', 'ffprobe']) {
    const real = `/usr/bin/${tool}`;
    const w = join(dir, tool);
    // one line a run: the tool, OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, then its arguments
    writeFileSync(
      w,
      `#!/bin/sh\nprintf '%s|%s|%s|%s\\n' ${tool} "$OPENBLAS_NUM_THREADS" "$OMP_NUM_THREADS" "$*" >> '${log}'\nexec ${real} "$@"\n`,
    );
    chmodSync(w, 0o755);
  }
  Object.assign(env, { FFMPEG_PATH: join(dir, 'ffmpeg'), FFPROBE_PATH: join(dir, 'ffprobe') });
});

function runs(): { tool: string; blas: string; omp: string; args: string }[] {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const [tool, blas, omp, ...rest] = l.split('|');
      return { tool: tool!, blas: blas!, omp: omp!, args: rest.join('|') };
    });
}

describe('the threads of the ffmpeg a scan starts', () => {
  it('compass response: one filter thread, OpenBLAS and OpenMP at one thread, the decoder at one', async () => {
    writeFileSync(log, '');
    const video = join(p.videos, 'faithful', 'ot-03__minimal.mp4');
    const r = await runCli(
      ['compass', 'response', '--cases', cases, '--case-id', 'ot-03', '--video', video],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const all = runs();
    const ffmpeg = all.filter((x) => x.tool === 'ffmpeg');
    expect(ffmpeg.length).toBeGreaterThanOrEqual(2);
    expect(all.some((x) => x.tool === 'ffprobe')).toBe(true);
    for (const x of all) expect([x.blas, x.omp], x.args).toEqual(['1', '1']);
    for (const x of ffmpeg) expect(x.args, x.args).toMatch(/-filter_threads 1 -filter_complex_threads 1 /);
    // the scan's decoder reads the video: one thread by default
    const decoder = ffmpeg.filter((x) => x.args.includes(`-i ${video}`));
    expect(decoder.length).toBeGreaterThanOrEqual(1);
    for (const x of decoder) expect(x.args).toMatch(/-threads 1 /);
  });

  it('OPENBLAS_NUM_THREADS set by the user is kept; --decode-threads 0 leaves the decoder to ffmpeg', async () => {
    writeFileSync(log, '');
    const video = join(p.videos, 'faithful', 'ot-03__minimal.mp4');
    const r = await runCli(
      [
        'compass',
        'response',
        '--cases',
        cases,
        '--case-id',
        'ot-03',
        '--video',
        video,
        '--decode-threads',
        '0',
      ],
      { env: { ...env, OPENBLAS_NUM_THREADS: '3' } },
    );
    expect(r.code, r.stderr).toBe(0);
    const all = runs();
    for (const x of all) expect(x.blas).toBe('3');
    const decoder = all.filter((x) => x.tool === 'ffmpeg' && x.args.includes(`-i ${video}`));
    for (const x of decoder) expect(x.args).not.toMatch(/-threads \d/);
  });
});
