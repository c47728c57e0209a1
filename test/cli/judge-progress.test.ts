/**
 * The judge phase shows its calls while it runs (in flight and completed), through the one progress
 * stream drawn on stderr, for both `compass evaluate` and `hero evaluate` — against the emulator at
 * a fixed latency over HTTP. Off a terminal the first call is a line at once and the last word is a
 * line when the command is done, whatever the clock says; KFBENCH_PROGRESS_EVERY_S=0 writes a line
 * per event.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let emu: Emulator;
let dir = '';

beforeAll(async () => {
  emu = await startEmulator({ latencyMs: 50 });
  dir = tempDir('kfbench-judge-progress-');
});
afterAll(async () => emu?.close());

/** The `judge calls:` lines of stderr as [in flight, completed]. */
function callLines(stderr: string): [number, number][] {
  return [...stderr.matchAll(/^judge calls: (\d+) in flight, (\d+) completed/gm)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
}

describe('the judge phase shows calls in flight and completed', () => {
  it('compass evaluate: a line at the first call and a last one with every call completed', async () => {
    const p = await sharedMiniCompass();
    const cases = oneCaseFile(p, 'ot-03', dir);
    mkdirSync(join(dir, 'videos', 'faithful'), { recursive: true });
    for (const mode of ['minimal', 'segment_specific'])
      copyFileSync(
        join(p.videos, 'faithful', `ot-03__${mode}.mp4`),
        join(dir, 'videos', 'faithful', `ot-03__${mode}.mp4`),
      );
    const r = await runCli([
      ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'videos'), '--model', 'faithful'],
      ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--concurrency', '4'],
      ...['--out', join(dir, 'compass-out'), '--segmenter', 'pixel'],
    ]);
    expect(r.code, r.stderr).toBe(0);
    const calls = Number(/judge calls (\d+), from the cache/.exec(r.stdout)?.[1]);
    expect(calls).toBeGreaterThan(0);
    const lines = callLines(r.stderr);
    expect(lines[0], r.stderr).toEqual([1, 0]);
    expect(lines.at(-1)).toEqual([0, calls]);
    for (const [inflight] of lines) expect(inflight).toBeLessThanOrEqual(4);
  });

  it('hero evaluate: with KFBENCH_PROGRESS_EVERY_S=0 a line per call, counts that only grow', async () => {
    const mini = await sharedMiniHero();
    const sel = await runCli([
      ...['hero', 'select', '--method', 'uniform', '--data', mini.data, '--track', mini.track],
      ...['--out', join(dir, 'uniform.jsonl'), '--k', '1'],
    ]);
    expect(sel.code, sel.stderr).toBe(0);
    const r = await runCli(
      [
        ...['hero', 'evaluate', '--selections', join(dir, 'uniform.jsonl'), '--data', mini.data],
        ...['--track', mini.track, '--judge', `openai:kfbench-emulator@${emu.url}`],
        ...['--concurrency', '3', '--bootstrap', '200', '--out', join(dir, 'hero-out')],
      ],
      { env: { KFBENCH_PROGRESS_EVERY_S: '0' } },
    );
    expect(r.code, r.stderr).toBe(0);
    const calls = Number(/^(\d+) calls, \d+ from cache/m.exec(r.stdout)?.[1]);
    expect(calls).toBeGreaterThan(0);
    const lines = callLines(r.stderr);
    // every start and every end is a line, and the close repeats the last
    expect(lines.length).toBeGreaterThanOrEqual(2 * calls);
    expect(lines[0]).toEqual([1, 0]);
    expect(lines.at(-1)).toEqual([0, calls]);
    for (const [i, [inflight, done]] of lines.entries()) {
      expect(inflight).toBeLessThanOrEqual(3);
      if (i > 0) expect(done).toBeGreaterThanOrEqual(lines[i - 1]![1]);
    }
    // the lines sit beside the phase that asks them
    expect(r.stderr).toMatch(/^evaluate: \d+ insertions to do/m);
  });
});
