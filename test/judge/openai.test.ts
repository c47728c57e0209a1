/** The real client against the emulator over HTTP on 127.0.0.1 — no stubbing of the client. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendError } from '../../src/errors.js';
import { JudgeCache } from '../../src/judge/cache.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { JUDGE_CALLS, type ProgressEvent } from '../../src/progress.js';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import { emulatorJudge } from '../support/emulator.js';
import { askMany, imagePool, question } from '../support/judge-questions.js';
import { ROOT, tempDir } from '../support/paths.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function setup(...args: Parameters<typeof emulatorJudge>) {
  const s = await emulatorJudge(...args);
  closers.push(() => s.close());
  return s;
}

describe('each fault is handled as specified', () => {
  it('429 with Retry-After: waits as told, retries, answers', async () => {
    const told: ProgressEvent[] = [];
    const s = await setup(
      { faults: { rate: 1, kinds: ['http429'], retryAfterS: 0.05, limit: 1 } },
      { onProgress: (e) => told.push(e) },
    );
    const v = await s.judge.ask(question(0, await imagePool()));
    expect(v.answer?.winner).toMatch(/^[AB]$/);
    expect(v.calls).toBe(1);
    expect(s.judge.stats.retries).toBe(1);
    expect(s.emu.log.map((l) => l.status)).toEqual([429, 200]);
    expect(s.emu.log[1]!.t - s.emu.log[0]!.t).toBeGreaterThanOrEqual(45); // Retry-After honoured (a lower bound)
    // the caller's progress stream hears of it: a retry of the judge's calls, naming the endpoint
    expect(told).toEqual([
      {
        type: 'retry',
        phase: JUDGE_CALLS,
        item: s.emu.url,
        attempt: 1,
        // what the server asked, and the wait chosen (it plus up to 50 % jitter)
        reason: expect.stringMatching(
          /^HTTP 429: the server asked to wait 0\.05 s \(Retry-After\); waiting 0\.0[5-7]\d* s$/,
        ),
      },
    ]);
  });

  it.each([
    ['http500', [500, 200]],
    ['reset', [-1, 200]],
  ] as const)('%s: retried, then answered', async (kind, statuses) => {
    const s = await setup({ faults: { rate: 1, kinds: [kind], limit: 1 } });
    const v = await s.judge.ask(question(1, await imagePool()));
    expect(v.answer).toBeDefined();
    expect(s.emu.log.map((l) => l.status)).toEqual(statuses);
    expect(s.judge.stats).toMatchObject({ calls: 1, retries: 1, unresolved: 0 });
  });

  it('a reply slower than the timeout: abandoned, retried, answered', async () => {
    // the slow reply is held until the client gives up (a minute at most), so only the timeout
    // ends it; an ordinary reply is far inside the timeout even on a loaded machine
    const s = await setup(
      { faults: { rate: 1, kinds: ['slow'], slowMs: 60_000, limit: 1 } },
      { timeoutMs: 1500 },
    );
    const v = await s.judge.ask(question(2, await imagePool()));
    expect(v.answer).toBeDefined();
    expect(s.judge.stats.retries).toBe(1);
    await s.emu.idle(); // the server has seen the abandoned request end
    expect(s.emu.log.map((l) => l.status)).toEqual([-2, 200]);
  });

  it.each(['prose', 'truncated', 'empty'] as const)(
    '%s once: asked once more, then answered',
    async (kind) => {
      const s = await setup({ faults: { rate: 1, kinds: [kind], limit: 1 } });
      const v = await s.judge.ask(question(3, await imagePool()));
      expect(v.answer).toBeDefined();
      expect(v.raw).toHaveLength(2);
      expect(v.calls).toBe(2);
      expect(s.judge.stats).toMatchObject({ calls: 2, reasks: 1, unresolved: 0 });
    },
  );

  it.each(['prose', 'truncated', 'empty'] as const)(
    '%s twice: recorded unresolved with both raw replies, no crash',
    async (kind) => {
      const file = join(tempDir(), 'c.sqlite');
      const s = await setup({ faults: { rate: 1, kinds: [kind], limit: 2 } }, {}, file);
      const q = question(4, await imagePool());
      const v = await s.judge.ask(q);
      expect(v.answer).toBeUndefined();
      expect(v.unresolved).toMatch(/unparsable after one re-ask/);
      expect(v.raw).toHaveLength(2);
      // the judge's unresolved answer is cached: asking again makes no call
      const again = await s.judge.ask(q);
      expect(again).toMatchObject({ cached: true, calls: 0, unresolved: v.unresolved });
      expect(s.emu.log).toHaveLength(2);
    },
  );
});

describe("the judge's calls in the one progress stream", () => {
  it('each call is started once on the wire (never more than --concurrency at once) and finished; retries and cache hits are events of the same stream', async () => {
    const events: ProgressEvent[] = [];
    const s = await setup(
      { latencyMs: 30, faults: { rate: 1, kinds: ['http500'], limit: 1 } },
      { concurrency: 2, onProgress: (e) => events.push(e) },
      join(tempDir(), 'calls.sqlite'),
    );
    const judge = new Judge(s.backend, { cache: s.cache, onProgress: (e) => events.push(e) });
    await askMany(judge, 8, 8);
    // every event of the stream has the one shape, in the judge's calls
    expect(new Set(events.map((e) => e.phase))).toEqual(new Set([JUDGE_CALLS]));
    const started = events.filter((e) => e.type === 'call-started').length;
    expect(started).toBe(8);
    expect(events.filter((e) => e.type === 'call-finished' && e.ok)).toHaveLength(8);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    let inflight = 0;
    let most = 0;
    for (const e of events) {
      if (e.type === 'call-started') most = Math.max(most, ++inflight);
      if (e.type === 'call-finished') inflight--;
    }
    // 8 questions asked at once, but only 2 on the wire at a time: the rest wait for a slot
    expect(most).toBe(2);
    expect(inflight).toBe(0);
    // asked again: all from the cache, no call, no event
    const before = events.length;
    await askMany(judge, 8, 8);
    expect(events.length).toBe(before);
  });
});

describe('fail fast on what retries cannot fix (exit 4 at the CLI)', () => {
  it('a bad key (401) names the endpoint and the status, without retrying', async () => {
    const s = await setup({ apiKey: 'right' }, { apiKey: 'wrong' });
    const err = await s.judge.ask(question(5, await imagePool())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(String((err as Error).message)).toMatch(
      new RegExp(`${s.emu.url.replace(/[/.]/g, '\\$&')}: HTTP 401`),
    );
    expect(s.emu.log).toHaveLength(1);
  });

  it('a wrong model (404)', async () => {
    const e = await startEmulator();
    closers.push(() => e.close());
    const judge = new Judge(
      new OpenAiBackend({ model: 'no-such-model', baseUrls: [e.url], backoffBaseMs: 5 }),
    );
    await expect(judge.ask(question(6, await imagePool()))).rejects.toThrow(
      /HTTP 404 \(model "no-such-model"/,
    );
    expect(e.log).toHaveLength(1);
  });

  it('an unreachable server', async () => {
    const e = await startEmulator();
    const url = e.url;
    await e.close();
    const judge = new Judge(
      new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [url], backoffBaseMs: 5 }),
    );
    await expect(judge.ask(question(7, await imagePool()))).rejects.toThrow(/unreachable \(ECONNREFUSED\)/);
  });

  it('errors are never cached', async () => {
    const file = join(tempDir(), 'c.sqlite');
    const s = await setup({ faults: { rate: 1, kinds: ['http500'] } }, { maxRetries: 1 }, file);
    await expect(s.judge.ask(question(8, await imagePool()))).rejects.toThrow(
      /gave up after 2 attempts \(last: HTTP 500\)/,
    );
    expect(s.cache!.stats().rows).toBe(0);
  });
});

describe('several base URLs share the load', () => {
  it('least-in-flight spreads requests; a failing endpoint is rested and the others carry on', async () => {
    const good = await startEmulator({ latencyMs: 5 });
    const bad = await startEmulator({ faults: { rate: 1, kinds: ['http500'] } });
    const other = await startEmulator({ latencyMs: 5 });
    closers.push(
      () => good.close(),
      () => bad.close(),
      () => other.close(),
    );
    const judge = new Judge(
      new OpenAiBackend({
        model: 'kfbench-emulator',
        baseUrls: [good.url, bad.url, other.url],
        backoffBaseMs: 1,
        restAfter: 2,
        restMs: 60_000,
        concurrency: 8,
      }),
    );
    const verdicts = await askMany(judge, 60, 16);
    expect(verdicts.every((v) => v.answer)).toBe(true);
    expect(good.log.length).toBeGreaterThan(10);
    expect(other.log.length).toBeGreaterThan(10);
    // rested after 2 failures in a row: only what was already in flight reached it
    expect(bad.log.length).toBeLessThanOrEqual(8);
  });
});

describe('a 2,000-call run under a 30 % mixed fault rate', () => {
  it('ends with every call answered or unresolved with a reason — none lost, none duplicated, totals reconciled', async () => {
    const file = join(tempDir(), 'c.sqlite');
    let retried = 0;
    // slow replies are held until the client gives up, so the timeout is what ends them; the
    // timeout is long enough that an ordinary reply never meets it, even on a loaded machine —
    // and the totals below hold even if one did (they are counted, not timed)
    const s = await setup(
      {
        faults: {
          rate: 0.3,
          kinds: ['http429', 'http500', 'slow', 'reset', 'prose', 'truncated', 'empty'],
          retryAfterS: 0.02,
          slowMs: 60_000,
          seed: 7,
        },
      },
      {
        timeoutMs: 1000,
        concurrency: 16,
        maxRetries: 8,
        onProgress: (e) => void (e.type === 'retry' && retried++),
      },
      file,
    );
    const verdicts = await askMany(s.judge, 2000);
    expect(verdicts).toHaveLength(2000);
    for (const v of verdicts) expect(!!v.answer !== !!v.unresolved).toBe(true);
    const rows = s.cache!.stats();
    expect(rows.rows).toBe(2000);
    expect(rows.unresolved).toBe(verdicts.filter((v) => v.unresolved).length);
    await s.emu.idle(); // every request the server saw has its final status
    const log = s.emu.log;
    expect(log.filter((l) => l.status === 0)).toEqual([]);
    const st = s.judge.stats;
    // every HTTP attempt the client made reached the server exactly once: none lost, none duplicated
    expect(st.calls + st.retries).toBe(log.length);
    expect(retried).toBe(st.retries); // every retry was reported to the caller, with its reason
    // every failed attempt (429, 500, reset, abandoned) was retried; a reply is a call unless the client had left
    const failed = log.filter((l) => l.status !== 200).length;
    expect(st.retries).toBeGreaterThanOrEqual(failed);
    expect(log.filter((l) => l.status === 200).length - st.calls).toBe(st.retries - failed);
    // each fault kind was met and answered as specified
    const met = (k: string) => log.filter((l) => l.fault === k);
    expect(met('http429').every((l) => l.status === 429)).toBe(true);
    expect(met('http500').every((l) => l.status === 500)).toBe(true);
    expect(met('reset').every((l) => l.status === -1)).toBe(true);
    expect(met('slow').length).toBeGreaterThan(0);
    expect(met('slow').every((l) => l.status === -2)).toBe(true); // only the timeout ends a slow reply
    // an unreadable reply the client read is asked once more; every question has one first call
    const unreadable = log.filter(
      (l) => ['prose', 'truncated', 'empty'].includes(l.fault ?? '') && l.status === 200,
    );
    expect(st.reasks).toBeLessThanOrEqual(unreadable.length);
    expect(st.reasks).toBeGreaterThan(0);
    expect(st.calls - st.reasks).toBe(2000);
    expect(verdicts.filter((v) => v.unresolved).length).toBeGreaterThan(0); // the fault mix does produce some
  });
});

function driver(cache: string, url: string, n: number) {
  return spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test', 'support', 'judge-driver.ts'), cache, url, String(n)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

function finished(p: ReturnType<typeof driver>): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  p.stdout!.on('data', (c: Buffer) => {
    out += c;
  });
  p.stderr!.on('data', (c: Buffer) => {
    err += c;
  });
  return new Promise((resolve) => p.on('close', (code) => resolve({ code, out, err })));
}

describe('crash and resume, and two processes on one cache', () => {
  it('kill -9 half way: the second run makes only the calls the first did not finish', async () => {
    const file = join(tempDir(), 'c.sqlite');
    const e = await startEmulator({ latencyMs: 3 });
    closers.push(() => e.close());
    const first = driver(file, e.url, 2000);
    const done1 = finished(first);
    await e.requests(1000); // half way by the emulator's own count
    first.kill('SIGKILL');
    await done1;
    const c = new JudgeCache(file);
    const kept = c.stats().rows;
    c.close();
    expect(kept).toBeGreaterThan(500);
    expect(kept).toBeLessThan(2000);
    const before = e.log.length;
    const second = await finished(driver(file, e.url, 2000));
    expect(second.code, second.err).toBe(0);
    expect(e.log.length - before).toBe(2000 - kept); // counted by the emulator itself
    const stats = JSON.parse(second.out.trim().split('\n').pop()!);
    expect(stats.cached).toBe(kept);
    const c2 = new JudgeCache(file);
    expect(c2.stats().rows).toBe(2000);
    c2.close();
  });

  it('two concurrent processes on one cache file and one emulator: every result present once', async () => {
    const file = join(tempDir(), 'c.sqlite');
    const e = await startEmulator({ latencyMs: 2 });
    closers.push(() => e.close());
    const [a, b] = await Promise.all([
      finished(driver(file, e.url, 800)),
      finished(driver(file, e.url, 800)),
    ]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    const c = new JudgeCache(file);
    const keys = [...c.rows()].map((r) => r.key);
    c.close();
    expect(keys).toHaveLength(800);
    expect(new Set(keys).size).toBe(800);
  });
});

describe('a 2xx reply that is not JSON (a proxy page, a reply cut with no length)', () => {
  /** A real server on 127.0.0.1 that answers the first `bad` requests with an HTML page, then a completion. */
  async function server(bad: number) {
    let seen = 0;
    const s = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen++;
        if (seen <= bad) {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html><body>upstream is restarting</body></html>');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            choices: [{ message: { content: '{"winner": "A", "reason": "sharper"}' } }],
            usage: { prompt_tokens: 10, completion_tokens: 5 },
          }),
        );
      });
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => s.close(() => r())));
    return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`, seen: () => seen };
  }

  const request = (images: Awaited<ReturnType<typeof imagePool>>) => {
    const q = question(0, images);
    return {
      prompt: q.prompt,
      images: q.images,
      labels: q.labels,
      protocol: 'pairwise',
      sampling: { temperature: 0, max_tokens: 64 },
      attempt: 0,
    };
  };

  it('is retried like a dropped connection, then answered', async () => {
    const s = await server(1);
    const b = new OpenAiBackend({ model: 'm', baseUrls: [s.url], backoffBaseMs: 5, maxRetries: 3 });
    closers.push(() => b.close());
    const images = await imagePool();
    const reply = await b.complete(request(images));
    expect(reply.text).toContain('"winner": "A"');
    expect(reply.retries).toBe(1);
    expect(s.seen()).toBe(2);
  });

  it('after the retries, a BackendError that says what came back (never a crash)', async () => {
    const s = await server(100);
    const b = new OpenAiBackend({ model: 'm', baseUrls: [s.url], backoffBaseMs: 5, maxRetries: 2 });
    closers.push(() => b.close());
    const images = await imagePool();
    await expect(b.complete(request(images))).rejects.toThrow(
      /gave up after 3 attempts \(last: HTTP 200 with a body that is not JSON\)/,
    );
    expect(s.seen()).toBe(3);
  });
});
