/**
 * Ctrl-C: `hero evaluate` stops starting judge calls at the first SIGINT, cancels the ones on the
 * wire, and exits 130 with one line; what was answered is cached, so the next run resumes. Driven by
 * the emulator's request log (no fixed sleeps).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
let dir: string;
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator({ latencyMs: 100 });
  dir = tempDir();
  const sel = await runCli([
    'hero',
    'select',
    '--method',
    'uniform',
    '--data',
    mini.data,
    '--track',
    mini.track,
    '--out',
    join(dir, 'uniform.jsonl'),
    '--k',
    '2',
  ]);
  expect(sel.code, sel.stderr).toBe(0);
});
afterAll(async () => emu.close());

/** Resolve once the emulator has logged `n` requests (checked on each turn of the event loop). */
async function logged(n: number): Promise<void> {
  while (emu.log.length < n) await new Promise((r) => setImmediate(r));
}

describe('Ctrl-C', () => {
  it('hero evaluate: exit 130 in one line, no call started after it, and the next run resumes from the cache', async () => {
    const cache = join(dir, 'cache.sqlite');
    const args = [
      'hero',
      'evaluate',
      '--selections',
      join(dir, 'uniform.jsonl'),
      '--data',
      mini.data,
      '--track',
      mini.track,
      '--judge',
      `openai:kfbench-emulator@${emu.url}`,
      '--cache',
      cache,
      '--protocol',
      'listwise',
      '--concurrency',
      '2',
      '--out',
      join(dir, 'out'),
      '--bootstrap',
      '200',
    ];
    let atSignal = 0;
    const r = await runCli(args, {
      onSpawn: (child) => {
        void logged(4).then(() => {
          atSignal = emu.log.length;
          child.kill('SIGINT');
        });
      },
    });
    expect(r.code, r.stderr).toBe(130);
    // progress lines aside, one error line
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('kfbench:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/interrupted \(Ctrl-C\)/);
    // at most the two calls the client had already sent when the signal came
    const first = emu.log.length;
    expect(first - atSignal).toBeLessThanOrEqual(2);
    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    // what the interrupted run received came from the cache the second time; the rest was asked
    const stats = JSON.parse(readFileSync(join(dir, 'out', 'run.json'), 'utf8'));
    expect(stats.cached).toBeGreaterThan(0);
    expect(stats.calls).toBe(emu.log.length - first);
  });
});
