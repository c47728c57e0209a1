/**
 * Judge replies are read within bounds (issue 46, items 2 and 3): a reply body is never held past
 * the reply limit (an endless chunked reply used to grow the client to GBs, a 50 MB one at
 * --concurrency 4 to 0.9 GB), and the reply's parse is part of the call's time budget. The client
 * runs in a child process (test/support/reply-memory-driver.ts) so that its peak RSS is its own;
 * the emulator on 127.0.0.1 sends the replies. Memory is asserted as a bound against the same
 * child answered normally, never a time.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { replyBodyLimit } from '../../src/judge/reply-limit.js';
import type { FaultPlan } from '../../src/synthetic/emulator/faults.js';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import { imagePool, question } from '../support/judge-questions.js';
import { ROOT } from '../support/paths.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

interface DriverResult {
  answered: number;
  unresolved: (string | null)[];
  raw_chars: number;
  calls: number;
  max_rss_mb: number;
}

/** `n` questions at --concurrency `n` from a child process against an emulator with `faults`. */
async function childRun(faults: FaultPlan | undefined, n: number) {
  const emu = await startEmulator(faults ? { faults } : {});
  closers.push(() => emu.close());
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'test', 'support', 'reply-memory-driver.ts'),
      emu.url,
      String(n),
      String(n),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (err += c));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  expect(code, err).toBe(0);
  await emu.idle();
  return { r: JSON.parse(out.trim().split('\n').pop()!) as DriverResult, log: emu.log };
}

const LIMIT = replyBodyLimit(1 << 20); // the default max_reply_bytes' body limit, 6.06 MiB
/** What a child asking over the limit may use beyond the same child answered normally. */
const BOUND_MB = 64;

describe('a reply body is read no further than its limit (item 2)', () => {
  it('an endless chunked reply, 2 at once: reading stops at the limit, unresolved with that reason, memory bounded', async () => {
    const normal = await childRun(undefined, 2);
    expect(normal.r.answered).toBe(2);
    // the server would stop at 128 MiB if the client read on (as it did: each reply buffered whole)
    const endless = await childRun({ rate: 1, kinds: ['endless'], endlessBytes: 128 << 20 }, 2);
    expect(endless.r.max_rss_mb - normal.r.max_rss_mb).toBeLessThan(BOUND_MB);
    // the client left every reply before its end (-2), never read one to the server's 128 MiB
    expect(endless.log.map((l) => l.status)).toEqual([-2, -2, -2, -2]);
    expect(endless.r.answered).toBe(0);
    expect(endless.r.calls).toBe(4); // asked once more, as an over-long reply is
    expect(endless.r.unresolved).toEqual([
      `reply body longer than the ${LIMIT}-byte limit (6 × max_reply_bytes + 64 KiB): reading stopped there`,
      `reply body longer than the ${LIMIT}-byte limit (6 × max_reply_bytes + 64 KiB): reading stopped there`,
    ]);
    expect(endless.r.raw_chars).toBeLessThan(2048); // the record keeps the first KiB
  });

  it('a 50 MB reply at --concurrency 4: not read (its content-length says), unresolved, memory bounded', async () => {
    const normal = await childRun(undefined, 4);
    const huge = await childRun({ rate: 1, kinds: ['huge'], hugeBytes: 50e6 }, 4);
    expect(huge.r.max_rss_mb - normal.r.max_rss_mb).toBeLessThan(BOUND_MB);
    expect(huge.log.map((l) => l.status)).toEqual(Array(8).fill(-2));
    expect(huge.r.answered).toBe(0);
    expect(huge.r.calls).toBe(8);
    for (const u of huge.r.unresolved)
      expect(u).toMatch(
        new RegExp(
          `^reply body of 50000\\d{3} bytes \\(its content-length\\) is longer than the ${LIMIT}-byte limit \\(6 × max_reply_bytes \\+ 64 KiB\\): not read$`,
        ),
      );
  });

  it('a reply just over a small limit through the backend: its beginning only, and why', async () => {
    const emu = await startEmulator({ faults: { rate: 1, kinds: ['endless'], endlessBytes: 1 << 20 } });
    const b = new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url], maxRetries: 0 });
    closers.push(async () => {
      await b.close();
      await emu.close();
    });
    const q = question(0, await imagePool());
    const r = await b.complete({
      ...q,
      protocol: 'pairwise',
      sampling: { temperature: 0, max_tokens: 64 },
      attempt: 0,
      maxReplyBytes: 1000,
    });
    expect(r.tooLong).toBe(
      `reply body longer than the ${replyBodyLimit(1000)}-byte limit (6 × max_reply_bytes + 64 KiB): reading stopped there`,
    );
    expect(r.text.startsWith('{"id":"emu-')).toBe(true);
    expect(r.text.length).toBeLessThanOrEqual(1024);
  });
});

describe("a reply's parse is part of its call's time budget (item 3)", () => {
  it('the backend says when the budget ends: the request timeout from the call', async () => {
    const emu = await startEmulator();
    const b = new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url], timeoutMs: 3_600_000 });
    closers.push(async () => {
      await b.close();
      await emu.close();
    });
    const q = question(1, await imagePool());
    const before = performance.now();
    const r = await b.complete({
      ...q,
      protocol: 'pairwise',
      sampling: { temperature: 0, max_tokens: 64 },
      attempt: 0,
    });
    const after = performance.now();
    expect(r.deadline).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(r.deadline).toBeLessThanOrEqual(after + 3_600_000);
  });
});
