/**
 * `compass evaluate --jobs 2`, Ctrl-C in the scan phase: the scans run in worker threads, each
 * with its own ffmpeg; the first SIGINT stops the workers, kills their ffmpeg processes and the
 * command exits 130 with one line, leaving no process behind. `compass score --segmenter judge`:
 * Ctrl-C while a segmentation call is on the wire cancels it the same way.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegBinary } from '../../src/media/ffmpeg-processes.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

let emu: Emulator;
let dir = '';
let cases = '';

beforeAll(async () => {
  const p = await sharedMiniCompass();
  emu = await startEmulator();
  dir = tempDir('kfbench-compass-jobs-');
  cases = oneCaseFile(p, 'ot-03', dir);
  // long videos (the mini one forty times over, no re-encoding): the scans are still running
  // when the signal comes
  mkdirSync(join(dir, 'videos', 'faithful'), { recursive: true });
  for (const mode of ['minimal', 'segment_specific'])
    execFileSync(ffmpegBinary(), [
      ...['-v', 'error', '-stream_loop', '39', '-i', join(p.videos, 'faithful', `ot-03__${mode}.mp4`)],
      ...['-c', 'copy', join(dir, 'videos', 'faithful', `ot-03__${mode}.mp4`)],
    ]);
});
afterAll(async () => {
  await emu?.close();
});

/** The pids and names of a process's children (none once it has gone). */
function children(pid: number): { pid: number; name: string }[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .map(([p, name]) => ({ pid: Number(p), name: name ?? '' }));
  } catch {
    return []; // ps exits 1 when it lists nothing
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('compass evaluate --jobs 2, Ctrl-C while scanning', () => {
  it('exits 130 in one line, and no ffmpeg it started is left running', async () => {
    const seen = new Set<number>();
    const watch = async (child: ChildProcess) => {
      // wait for both workers' decoders, then interrupt
      for (;;) {
        const ff = children(child.pid!).filter((c) => c.name === 'ffmpeg');
        for (const c of ff) seen.add(c.pid);
        if (ff.length >= 2 || child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGINT');
    };
    const r = await runCli(
      [
        ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'videos'), '--model', 'faithful'],
        ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--segmenter', 'pixel'],
        // the videos last 180 s so that the scan is still running when Ctrl-C comes
        ...['--out', join(dir, 'out'), '--jobs', '2', '--max-duration', '600'],
      ],
      { onSpawn: (child) => void watch(child) },
    );
    expect(r.code, r.stderr).toBe(130);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('kfbench:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/interrupted \(Ctrl-C\)/);
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect([...seen].filter(alive)).toEqual([]);
  });
});

describe('compass score --segmenter judge, Ctrl-C while the judge segments', () => {
  it('cancels the call on the wire and exits 130 in one line', async () => {
    const slow = await startEmulator({ latencyMs: 120_000 });
    try {
      const watch = async (child: ChildProcess) => {
        while (slow.peakInFlight === 0 && child.exitCode === null)
          await new Promise((r) => setTimeout(r, 20));
        child.kill('SIGINT');
      };
      const r = await runCli(
        [
          ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'videos'), '--model', 'faithful'],
          ...['--segmenter', 'judge', '--judge', `openai:kfbench-emulator@${slow.url}`],
          ...['--out', join(dir, 'score-out'), '--max-duration', '600'],
        ],
        { onSpawn: (child) => void watch(child) },
      );
      expect(r.code, r.stderr).toBe(130);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('kfbench:'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/interrupted \(Ctrl-C\)/);
    } finally {
      await slow.close();
    }
  });
});
