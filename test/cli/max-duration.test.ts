/**
 * `--max-duration` on the Compass commands that scan model videos: a video whose header says it
 * runs longer is a failed video with that reason, decided before anything decodes it. The long
 * video here is a real 150 s file cut after its header (its data gone): a decode would fail as
 * "damaged or truncated", so the reason given proves the header decided. Real ffmpeg, real files,
 * the real emulator for `compass evaluate`.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegRun } from '../../src/media/ffmpeg.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

let p: MiniCompassPaths;
let emu: Emulator;
let dir = '';
let cases = '';
let long = '';

beforeAll(async () => {
  p = await sharedMiniCompass();
  emu = await startEmulator();
  dir = tempDir('kfbench-max-duration-');
  cases = oneCaseFile(p, 'ot-03', dir);
  const videos = join(dir, 'videos', 'slow');
  mkdirSync(videos, { recursive: true });
  // 150 s at 1 fps, its index first; then cut to a quarter: the header still says 150 s
  const whole = join(dir, 'whole.mp4');
  await ffmpegRun(
    [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=1', '-t', '150'],
      ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-movflags', '+faststart', '-y', whole],
    ],
    whole,
  );
  const bytes = readFileSync(whole);
  long = join(videos, 'ot-03__minimal.mp4');
  writeFileSync(long, bytes.subarray(0, bytes.length >> 2));
  copyFileSync(
    join(p.videos, 'faithful', 'ot-03__segment_specific.mp4'),
    join(videos, 'ot-03__segment_specific.mp4'),
  );
});
afterAll(async () => emu?.close());

const reason = (file: string) =>
  `${file}: lasts 150.0 s, longer than the 120 s limit (--max-duration): not decoded`;

describe('--max-duration', () => {
  it('compass score: the long video is a failed video with that reason (exit 5), the other is scored', async () => {
    const out = join(dir, 'score');
    const r = await runCli([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'videos'), '--model', 'slow'],
      ...['--out', out, '--no-scan-cache'],
    ]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`failed: ${reason(long)}`);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.failed).toEqual([{ video: long, error: reason(long) }]);
    const rows = readFileSync(join(out, 'response.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => [x.prompt_mode, x.status])).toEqual([
      ['minimal', 'failed'],
      ['segment_specific', 'scored'],
    ]);
    // a limit above it: the file is decoded, and fails as the damaged file it is
    const wide = await runCli([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'videos'), '--model', 'slow'],
      ...['--out', join(dir, 'score-wide'), '--no-scan-cache', '--max-duration', '200'],
    ]);
    expect(wide.code, wide.stderr).toBe(5);
    expect(wide.stderr).not.toContain('--max-duration');
    expect(wide.stderr).toMatch(/failed: .*ot-03__minimal\.mp4: /);
  });

  it("a header that understates (10 s on 1,800 s of frames): refused by the frames' own timestamps, not decoded (item 12)", async () => {
    // a real Matroska file of 1,800 s at 1 fps whose Segment Info Duration is rewritten to 10 s
    const whole = join(dir, 'lying-whole.mkv');
    await ffmpegRun(
      [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=1', '-t', '1800'],
        ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-y', whole],
      ],
      whole,
    );
    const bytes = readFileSync(whole);
    const at = bytes.indexOf(Buffer.from([0x44, 0x89, 0x88])); // EBML Duration, an 8-byte float (ms)
    expect(bytes.readDoubleBE(at + 3)).toBe(1_800_000);
    bytes.writeDoubleBE(10_000, at + 3);
    const videos = join(dir, 'lying-videos', 'liar');
    mkdirSync(videos, { recursive: true });
    const lying = join(videos, 'ot-03__minimal.mp4');
    writeFileSync(lying, bytes);
    const probed = await runCli(['media', 'probe', lying, '--json']);
    expect(JSON.parse(probed.stdout)).toMatchObject({ duration_s: 10 });
    const out = join(dir, 'score-lying');
    const r = await runCli([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'lying-videos'), '--model', 'liar'],
      ...['--out', out, '--no-scan-cache', '--modes', 'minimal'],
    ]);
    expect(r.code, r.stderr).toBe(5);
    const why = `${lying}: its frames run past the 120 s limit (--max-duration) by their own timestamps (128.0 s read, its header says 10.0 s): not decoded`;
    expect(r.stderr).toContain(`failed: ${why}`);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.failed).toEqual([{ video: lying, error: why }]);
    // the single-video command: bad input naming the file (exit 3)
    const one = await runCli([
      'compass',
      'response',
      '--cases',
      cases,
      '--case-id',
      'ot-03',
      '--video',
      lying,
    ]);
    expect(one.code, one.stderr).toBe(3);
    expect(one.stderr.trim()).toBe(`kfbench: ${why}`);
  });

  it('compass evaluate: reported like any failed video, never judged', async () => {
    const out = join(dir, 'evaluate');
    const before = emu.log.length;
    const r = await runCli([
      ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'videos'), '--model', 'slow'],
      ...[
        '--judge',
        `openai:kfbench-emulator@${emu.url}`,
        '--segmenter',
        'pixel',
        '--out',
        out,
        '--no-scan-cache',
      ],
    ]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`failed: ${reason(long)}`);
    const evals = readFileSync(join(out, 'evaluation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const failed = evals.find((v) => v.prompt_mode === 'minimal');
    expect(failed.status).toBe('failed');
    // never sent to the judge: no frame of it; the other video was judged
    expect(failed.quality.frames.count).toBe(0);
    expect(evals.find((v) => v.prompt_mode === 'segment_specific').quality.frames.count).toBeGreaterThan(0);
    expect(emu.log.length).toBeGreaterThan(before);
  });

  it('compass response: bad input naming the file (exit 3); a bad --max-duration is a usage error', async () => {
    const r = await runCli(['compass', 'response', '--cases', cases, '--case-id', 'ot-03', '--video', long]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.trim()).toBe(`kfbench: ${reason(long)}`);
    const bad = await runCli([
      ...['compass', 'response', '--cases', cases, '--case-id', 'ot-03', '--video', long],
      ...['--max-duration', '0'],
    ]);
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toContain('--max-duration');
  });
  it('a warm run starts no ffprobe: the header is checked before a scan, a cached scan by its recorded duration', async () => {
    // ffmpeg and ffprobe through logging wrappers (kfbench finds ffprobe beside FFMPEG_PATH)
    const bin = join(dir, 'bin');
    const log = join(dir, 'starts.log');
    mkdirSync(bin, { recursive: true });
    for (const tool of ['ffmpeg', 'ffprobe']) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexec ${tool} "$@"\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    const env = { FFMPEG_PATH: join(bin, 'ffmpeg'), PATH: process.env.PATH };
    const videos = join(dir, 'warm-videos', 'm');
    mkdirSync(videos, { recursive: true });
    for (const mode of ['minimal', 'segment_specific'])
      copyFileSync(join(p.videos, 'faithful', `ot-03__${mode}.mp4`), join(videos, `ot-03__${mode}.mp4`));
    const score = (out: string, ...more: string[]) =>
      runCli(
        [
          ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'warm-videos'), '--model', 'm'],
          ...['--out', join(dir, out), '--scan-cache', join(dir, 'warm-scans.sqlite'), ...more],
        ],
        { env },
      );
    const cold = await score('warm-1');
    expect(cold.code, cold.stderr).toBe(0);
    // the processes that read a video (a run's one `-version` of each, for its cache keys, aside)
    const starts = () =>
      (existsSync(log) ? readFileSync(log, 'utf8').split('\n') : []).filter(
        (l) => l.trim() && !l.endsWith(' -version'),
      );
    expect(starts().some((l) => l.startsWith('ffprobe '))).toBe(true);
    writeFileSync(log, '');
    const warm = await score('warm-2');
    expect(warm.code, warm.stderr).toBe(0);
    expect(warm.stderr).toMatch(/2 cached/);
    expect(starts()).toEqual([]);
    // a limit below the cached videos' length: refused all the same, from the cache's record
    const tight = await score('warm-3', '--max-duration', '1');
    expect(tight.code, tight.stderr).toBe(5);
    expect(tight.stderr).toMatch(/failed: .*ot-03__minimal\.mp4: lasts \d+\.\d s, longer than the 1 s limit/);
    expect(starts()).toEqual([]);
  });
});
