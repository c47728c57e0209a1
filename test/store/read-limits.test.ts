/**
 * Every input read has a cap checked before or while reading (issue 46 item 1): a file read whole
 * is refused when it is not a regular file (`/dev/zero`, a FIFO) or past its size; an image past
 * the pixel limit is refused from its header, before a pixel is decoded; a `.zst` is refused once
 * it expands past its limit. The unbounded reads run in a child process
 * (test/support/read-limits-driver.ts, its data segment capped by `ulimit -d` so that the old
 * code's unbounded read fails there rather than on the machine) whose peak RSS is asserted as a
 * bound, never a time.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadInputError } from '../../src/errors.js';
import { DEFAULT_MAX_IMAGE_PIXELS, loadImage, MAX_IMAGE_FILE_BYTES } from '../../src/media/image.js';
import { readJsonlAll } from '../../src/store/jsonl.js';
import { readTextFile } from '../../src/store/limits.js';
import { MAX_DECOMPRESSED_BYTES, writeZstd } from '../../src/store/zstd.js';
import { runCommand } from '../support/cli.js';
import { ROOT, tempDir } from '../support/paths.js';
import { writeBlackPng } from '../support/plain-png.js';

/** What a refused read may use: node and tsx alone peak near 100 MB here. */
const BOUND_MB = 250;

function driver(kind: string, file: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(
    'bash',
    [
      '-c',
      `ulimit -d 3000000; exec "${process.execPath}" --import tsx test/support/read-limits-driver.ts "$0" "$1"`,
      kind,
      file,
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } },
  );
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    error: { message: string; code: string } | null;
    max_rss_mb: number;
  };
}

describe('files read whole are regular files within their size (item 1)', () => {
  it('KFBENCH_HERO_LAYOUT=/dev/zero is bad input naming it, in bounded memory (was: grew without end)', () => {
    const r = driver('layout', '/dev/zero');
    expect(r.error).toEqual({
      code: 'BAD_INPUT',
      message: '/dev/zero: not a regular file (a FIFO, socket or device is not read)',
    });
    expect(r.max_rss_mb).toBeLessThan(BOUND_MB);
  });

  it('a FIFO given as a text, JSONL or model preprocessing file is refused without waiting for a writer (was: hung)', () => {
    const fifo = join(tempDir(), 'layout.json');
    mkfifoSync(fifo);
    for (const kind of ['text', 'jsonl', 'preprocess'])
      expect(driver(kind, fifo).error?.message).toBe(
        `${fifo}: not a regular file (a FIFO, socket or device is not read)`,
      );
  });

  it('hero validate with KFBENCH_HERO_LAYOUT=/dev/zero exits 3 naming the file', async () => {
    // under the same data-segment cap as the driver: the old code read /dev/zero for minutes
    const r = await runCommand(
      'bash',
      [
        '-c',
        `ulimit -d 3000000; exec "${process.execPath}" dist/cli/bin.js hero validate --data "$0"`,
        tempDir(),
      ],
      { cwd: ROOT, env: { ...process.env, KFBENCH_HERO_LAYOUT: '/dev/zero' } },
    );
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toBe(
      'kfbench: /dev/zero: not a regular file (a FIFO, socket or device is not read)',
    );
  });

  it('a file that is cut at its limit while being read is refused too; one at the limit reads', () => {
    const f = join(tempDir(), 'prompt.txt');
    writeFileSync(f, 'abcd');
    expect(readTextFile(f, { max: 4 })).toBe('abcd');
    expect(() => readTextFile(f, { max: 3 })).toThrow(
      `${f}: too large (0 MiB; files read whole are limited to 0 MiB)`,
    );
  });
});

/** A real FIFO (node:fs has no mkfifo). */
function mkfifoSync(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
}

describe('images are refused past the pixel limit from their header (item 1)', () => {
  it('a 15000×15000 keyframe is bad input naming the file and the limit, in bounded memory (was 1.4 GB)', () => {
    const dir = tempDir();
    const big = join(dir, 'k1.png');
    writeBlackPng(big, 15000, 15000);
    const r = driver('image', big);
    expect(r.error).toEqual({
      code: 'BAD_INPUT',
      message: `${big}: image of 15000×15000 pixels is past the 64,000,000-pixel limit (raise it with KFBENCH_MAX_IMAGE_PIXELS)`,
    });
    expect(DEFAULT_MAX_IMAGE_PIXELS).toBe(64_000_000);
    expect(r.max_rss_mb).toBeLessThan(BOUND_MB);
  });

  it('KFBENCH_MAX_IMAGE_PIXELS moves the limit; a bad value is bad input', async () => {
    const f = join(tempDir(), 'small.png');
    writeBlackPng(f, 64, 64);
    expect(driver('image', f).error).toBeNull();
    expect(driver('image', f, { KFBENCH_MAX_IMAGE_PIXELS: '4095' }).error?.message).toBe(
      `${f}: image of 64×64 pixels is past the 4,095-pixel limit (raise it with KFBENCH_MAX_IMAGE_PIXELS)`,
    );
    expect(driver('image', f, { KFBENCH_MAX_IMAGE_PIXELS: '4096' }).error).toBeNull();
    expect(driver('image', f, { KFBENCH_MAX_IMAGE_PIXELS: 'lots' }).error?.message).toMatch(
      /KFBENCH_MAX_IMAGE_PIXELS must be a positive whole number/,
    );
    expect((await loadImage(f)).width).toBe(64);
  });

  it('an image file past its size limit (a sparse file) or not a regular file is refused before reading', async () => {
    const dir = tempDir();
    const f = join(dir, 'k2.png');
    writeBlackPng(f, 8, 8);
    const fd = openSync(f, 'r+');
    ftruncateSync(fd, MAX_IMAGE_FILE_BYTES + 1);
    closeSync(fd);
    await expect(loadImage(f)).rejects.toThrow(
      `${f}: too large (256 MiB; image files are limited to 256 MiB)`,
    );
    await expect(loadImage('/dev/zero')).rejects.toThrow('/dev/zero: not a regular file');
    mkdirSync(join(dir, 'k3.png'));
    await expect(loadImage(join(dir, 'k3.png'))).rejects.toBeInstanceOf(BadInputError);
  });
});

describe('a .zst stops at its decompressed-size limit (item 1)', () => {
  it('short lines past the limit: bad input naming the file and the limit; under it, read whole', async () => {
    const f = join(tempDir(), 'track_index.jsonl.zst');
    const line = Buffer.from(
      `${JSON.stringify({ movie_id: 'm', frame_idx: 0, clip_id: 'c', t_in_clip: 0 })}\n`,
    );
    const block = Buffer.concat(Array.from({ length: 1 << 12 }, () => line)); // about 240 KB
    await writeZstd(
      f,
      Readable.from(
        (function* () {
          for (let k = 0; k < 16; k++) yield block;
        })(),
      ),
    );
    const all = 16 * block.length;
    expect((await readJsonlAll(f, z.unknown(), { maxDecompressed: all })).length).toBe(16 << 12);
    await expect(readJsonlAll(f, z.unknown(), { maxDecompressed: 1 << 20 })).rejects.toThrow(
      `${f}: expands past the 1 MiB limit of a decompressed file`,
    );
    expect(MAX_DECOMPRESSED_BYTES).toBe(4 * 1024 ** 3);
  });
});
