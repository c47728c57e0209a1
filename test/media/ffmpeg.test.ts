/**
 * stopProcesses: what a worker thread calls as it stops — every ffmpeg/ffprobe it started is killed
 * and reaped, and it starts no more. (It ends this file's ffmpeg use: the last test here.)
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BackendError } from '../../src/errors.js';
import { ffprobeJson } from '../../src/media/ffmpeg.js';
import { stopProcesses } from '../../src/media/ffmpeg-processes.js';
import { media, tempDir } from '../support/paths.js';

describe('stopProcesses', () => {
  it('kills and reaps the running processes, then refuses to start another', async () => {
    expect(await ffprobeJson(media('shots.mp4'), z.looseObject({}))).toHaveProperty('streams');
    // ffprobe opening a FIFO nobody writes waits for ever
    const fifo = join(tempDir(), 'never-written.mp4');
    execFileSync('mkfifo', [fifo]);
    const waiting = ffprobeJson(fifo, z.unknown()).catch((e: unknown) => e);
    const children = () => {
      try {
        return execFileSync('ps', ['-o', 'comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
      } catch {
        return ''; // ps exits 1 when it lists nothing
      }
    };
    while (!children().includes('ffprobe')) await new Promise((r) => setTimeout(r, 20));
    expect(await stopProcesses()).toBe(1);
    expect(await waiting).toBeInstanceOf(Error);
    const again = await ffprobeJson(media('shots.mp4'), z.unknown()).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(BackendError);
    expect((again as BackendError).message).toMatch(/could not start: this thread is stopping/);
    expect(await stopProcesses()).toBe(0);
    expect(children()).not.toMatch(/ffprobe/); // killed and reaped: not even a zombie
  });
});
