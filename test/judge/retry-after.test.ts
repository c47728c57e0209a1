/**
 * A server's Retry-After is honoured up to --max-retry-wait (issue 46, item 10: `Retry-After:
 * 86400` was obeyed silently), and the retry says what the server asked and what kfbench did.
 * The emulator on 127.0.0.1 sends the 429s. No test waits on a clock: were the wait not capped, the
 * retry event would not say so and the test aborts the call at once (it never hangs for a day).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { resolveJudgeSettings } from '../../src/judge/precedence.js';
import { JUDGE_CALLS, type ProgressEvent } from '../../src/progress.js';
import type { FaultPlan } from '../../src/synthetic/emulator/faults.js';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { imagePool, question } from '../support/judge-questions.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { media, tempDir } from '../support/paths.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A judge whose calls are cancelled when a retry event does not read `expected`. */
async function judgeExpecting(faults: FaultPlan, maxRetryWaitMs: number, expected: RegExp) {
  const emu = await startEmulator({ faults });
  const stop = new AbortController();
  const told: ProgressEvent[] = [];
  const judge = new Judge(
    new OpenAiBackend({
      model: 'kfbench-emulator',
      baseUrls: [emu.url],
      maxRetryWaitMs,
      random: () => 0, // no jitter: the wait is what the server asked, or the cap
      onProgress: (e) => {
        told.push(e);
        if (e.type === 'retry' && !expected.test(e.reason)) stop.abort(new Error(`retry said: ${e.reason}`));
      },
    }),
    { signal: stop.signal },
  );
  closers.push(async () => {
    await judge.close();
    await emu.close();
  });
  return { emu, judge, told };
}

describe('Retry-After is capped by --max-retry-wait (item 10)', () => {
  it('Retry-After: 86400 with a cap of 0.05 s: waits 0.05 s, says so, answers', async () => {
    const { emu, judge, told } = await judgeExpecting(
      { rate: 1, kinds: ['http429'], retryAfterS: 86400, limit: 1 },
      50,
      /more than --max-retry-wait/,
    );
    const images = await imagePool();
    // two questions at once: the one held back by the 429's pause of every caller is not held a day either
    const [a, b] = await Promise.all([judge.ask(question(0, images)), judge.ask(question(1, images))]);
    expect(a.answer).toBeDefined();
    expect(b.answer).toBeDefined();
    expect(emu.log.map((l) => l.status).sort()).toEqual([200, 200, 429]);
    expect(told).toEqual([
      {
        type: 'retry',
        phase: JUDGE_CALLS,
        item: emu.url,
        attempt: 1,
        reason:
          'HTTP 429: the server asked to wait 86400 s (Retry-After), more than --max-retry-wait 0.05 s; waiting 0.05 s',
      },
    ]);
  });

  it('a Retry-After within the cap is waited as asked, and said', async () => {
    const { emu, judge, told } = await judgeExpecting(
      { rate: 1, kinds: ['http429'], retryAfterS: 0.02, limit: 1 },
      300_000,
      /asked to wait 0\.02 s/,
    );
    const v = await judge.ask(question(2, await imagePool()));
    expect(v.answer).toBeDefined();
    expect(emu.log.map((l) => l.status)).toEqual([429, 200]);
    expect(told.map((e) => (e.type === 'retry' ? e.reason : e.type))).toEqual([
      'HTTP 429: the server asked to wait 0.02 s (Retry-After); waiting 0.02 s',
    ]);
  });

  it('the cap: --max-retry-wait, else max_retry_wait_s in --config, else 300 s', () => {
    const spec = { judge: 'openai:m@http://127.0.0.1:9/v1' };
    expect(resolveJudgeSettings(spec, {}).maxRetryWaitMs).toBe(300_000);
    expect(resolveJudgeSettings({ ...spec, maxRetryWaitS: 2.5 }, {}).maxRetryWaitMs).toBe(2500);
  });

  it('through the CLI: hero evaluate against Retry-After: 86400 with --max-retry-wait 0.2 finishes, and stderr says what was done', async () => {
    const emu = await startEmulator({
      faults: { rate: 1, kinds: ['http429'], retryAfterS: 86400, limit: 1 },
    });
    closers.push(() => emu.close());
    const mini = await sharedMiniHero();
    const dir = tempDir('kfbench-retry-after-');
    const sel = await runCli([
      ...['hero', 'select', '--method', 'uniform', '--data', mini.data, '--track', mini.track],
      ...['--out', join(dir, 'uniform.jsonl'), '--k', '1'],
    ]);
    expect(sel.code, sel.stderr).toBe(0);
    const r = await runCli([
      ...['hero', 'evaluate', '--selections', join(dir, 'uniform.jsonl'), '--data', mini.data],
      ...['--track', mini.track, '--judge', `openai:kfbench-emulator@${emu.url}`],
      ...['--max-retry-wait', '0.2', '--bootstrap', '200', '--out', join(dir, 'out')],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'HTTP 429: the server asked to wait 86400 s (Retry-After), more than --max-retry-wait 0.2 s; waiting 0.2 s',
    );
    expect(emu.log.filter((l) => l.status === 429)).toHaveLength(1);
  });

  it('--max-retry-wait takes seconds ≥ 0: anything else is a usage error (exit 2)', async () => {
    const r = await runCli([
      'judge',
      'pair',
      media('base.png'),
      media('blur.png'),
      '--judge',
      'openai:m@http://127.0.0.1:9/v1',
      '--max-retry-wait',
      '-1',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--max-retry-wait');
  });
});
