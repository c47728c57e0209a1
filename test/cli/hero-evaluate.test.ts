/**
 * `kfbench hero evaluate` as a user meets it, against the emulator over HTTP: the judge cache is
 * kept in the output folder by default (a second run asks nothing, a dry run counts what it holds),
 * and `--max-calls N` is a hard ceiling at any concurrency (exactly N calls, exit 5, resumable).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
let dir = '';
beforeAll(async () => {
  mini = await sharedMiniHero();
  // a little latency so that calls overlap at a high concurrency
  emu = await startEmulator({ latencyMs: 20 });
  dir = tempDir('kfbench-hero-eval-');
  const sel = await runCli([
    ...['hero', 'select', '--method', 'uniform', '--data', mini.data, '--track', mini.track],
    ...['--out', join(dir, 'uniform.jsonl'), '--k', '2'],
  ]);
  expect(sel.code, sel.stderr).toBe(0);
});
afterAll(async () => emu?.close());

const args = (out: string, ...extra: string[]) => [
  ...['hero', 'evaluate', '--selections', join(dir, 'uniform.jsonl'), '--data', mini.data],
  ...['--track', mini.track, '--judge', `openai:kfbench-emulator@${emu.url}`, '--out', out],
  ...['--bootstrap', '200', '--include-stills', ...extra],
];
/** Calls the emulator received while `f` ran. */
async function counted<T>(f: () => Promise<T>): Promise<{ r: T; calls: number }> {
  const before = emu.log.length;
  const r = await f();
  return { r, calls: emu.log.length - before };
}

describe('kfbench hero evaluate', () => {
  it('keeps its judge cache in --out by default: a second run asks nothing, the dry run counts the cache', async () => {
    const out = join(dir, 'default-cache');
    const dry0 = await runCli([...args(out), '--dry-run', '--json']);
    expect(dry0.code, dry0.stderr).toBe(0);
    const plan = JSON.parse(dry0.stdout);
    expect(plan.cached).toBe(0);
    expect(plan.questions).toBeGreaterThan(0);
    // a dry run reads the cache, it creates none
    expect(existsSync(join(out, 'judge-cache.sqlite'))).toBe(false);

    const first = await counted(() => runCli(args(out)));
    expect(first.r.code, first.r.stderr).toBe(0);
    expect(first.calls).toBe(plan.questions);
    expect(existsSync(join(out, 'judge-cache.sqlite'))).toBe(true);
    const second = await counted(() => runCli(args(out)));
    expect(second.r.code, second.r.stderr).toBe(0);
    expect(second.calls).toBe(0);
    expect(second.r.stdout).toMatch(new RegExp(`^0 calls, ${plan.questions} from cache`, 'm'));

    const dry = await runCli([...args(out), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`the cache holds ${plan.questions}; 0 to ask`);

    const help = await runCli(['hero', 'evaluate', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('default <out>/judge-cache.sqlite');
  });

  it.each([1, 4, 16])(
    '--max-calls 10 at concurrency %i: exactly 10 calls, exit 5, and the next run resumes from the cache',
    async (concurrency) => {
      const out = join(dir, `budget-${concurrency}`);
      const needed = JSON.parse((await runCli([...args(out), '--dry-run', '--json'])).stdout).questions;
      expect(needed).toBeGreaterThan(10);
      const cut = await counted(() =>
        runCli([...args(out), '--max-calls', '10', '--concurrency', String(concurrency)]),
      );
      expect(cut.r.code, cut.r.stderr).toBe(5);
      expect(cut.calls).toBe(10);
      expect(cut.r.stderr).toMatch(/--max-calls.*run again to resume/);
      // many calls in flight on one Ctrl-C signal: no listener-leak warning
      expect(cut.r.stderr).not.toContain('MaxListenersExceededWarning');
      const dry = JSON.parse((await runCli([...args(out), '--dry-run', '--json'])).stdout);
      expect(dry.cached).toBe(10);
      const rest = await counted(() => runCli([...args(out), '--concurrency', String(concurrency)]));
      expect(rest.r.code, rest.r.stderr).toBe(0);
      expect(rest.calls).toBe(needed - 10);
    },
  );

  it('a judge that answers prose half the time: the unresolved share is reported, and above --max-unresolved the exit is 5', async () => {
    const prose = await startEmulator({ faults: { rate: 0.5, kinds: ['prose'] } });
    try {
      const out = join(dir, 'prose');
      const run = (...extra: string[]) =>
        runCli([
          ...['hero', 'evaluate', '--selections', join(dir, 'uniform.jsonl'), '--data', mini.data],
          ...['--track', mini.track, '--judge', `openai:kfbench-emulator@${prose.url}`, '--out', out],
          ...['--bootstrap', '200', '--concurrency', '2', ...extra],
        ]);
      const r = await run();
      expect(r.code, r.stderr).toBe(5);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
      const u = summary.unresolved;
      expect(u.answers).toBe(summary.questions); // listwise: one answer per question
      expect(u.unresolved).toBeGreaterThan(0.05 * u.answers);
      expect(u.share).toBeCloseTo(u.unresolved / u.answers, 10);
      const pct = (100 * u.share).toFixed(1);
      // one line at the end of the run, and the reason of exit 5 on stderr
      expect(r.stdout.trim().split('\n').at(-1)).toBe(
        `unresolved: ${u.unresolved} of ${u.answers} judge answers (${pct} %), above the limit of 5.0 % (--max-unresolved)`,
      );
      expect(r.stderr).toContain(
        `${pct} % of the judge answers are unresolved (${u.unresolved} of ${u.answers}), above --max-unresolved 5.0 %`,
      );
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(
        `unresolved: ${u.unresolved} of ${u.answers} judge answers (${pct} %)`,
      );
      // a looser limit, from the cache: the same share, within it, exit 0 (a percentage, "%" allowed)
      const loose = await run('--max-unresolved', '90%');
      expect(loose.code, loose.stderr).toBe(0);
      expect(loose.stdout).toContain(
        `unresolved: ${u.unresolved} of ${u.answers} judge answers (${pct} %), within the limit of 90.0 %`,
      );
      // out of range: a usage error before anything is asked
      for (const bad of ['150', '-1', 'half']) {
        const e = await run('--max-unresolved', bad);
        expect(e.code, e.stderr).toBe(2);
        expect(e.stderr).toContain('--max-unresolved takes a percentage from 0 to 100');
      }
    } finally {
      await prose.close();
    }
  });
});
