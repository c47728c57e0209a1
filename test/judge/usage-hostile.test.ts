/**
 * Issue 55 item 5: a hosted API whose replies report `usage` as a string, 1e308 or a negative
 * number, behind --tpm. Such counts are unknown (the estimate stands), never NaN or Infinity in the
 * rate limiter: every call is answered. The limiter's clock counts its reads; a limiter stalled on
 * an endless wait would read it without end, so a bound on the reads shows it never stalled.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/concurrency/rate.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import type { ProgressEvent } from '../../src/progress.js';
import { askMany } from '../support/judge-questions.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function hostileApi(usage: unknown): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: '{"winner": "A"}' } }], usage }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('--tpm with replies whose usage is not a sane number', () => {
  it.each([
    ['strings', { prompt_tokens: '12', completion_tokens: '7' }],
    ['1e308', { prompt_tokens: 1e308, completion_tokens: 1e308 }],
    ['negative', { prompt_tokens: -1e12, completion_tokens: 0 }],
  ])('usage as %s: every call answered, the limiter never stalls', async (_name, usage) => {
    const url = await hostileApi(usage);
    let reads = 0;
    const clock = () => {
      if (++reads > 5000) throw new Error('the rate limiter is stalled (it read its clock 5000 times)');
      return performance.now();
    };
    const events: ProgressEvent[] = [];
    const judge = new Judge(
      new OpenAiBackend({
        onProgress: (e) => events.push(e),
        model: 'hostile',
        baseUrls: [url],
        concurrency: 1,
        timeoutMs: 600_000,
        maxRetries: 0,
        limiter: new RateLimiter({ tpm: 6_000_000 }, clock),
      }),
    );
    closers.push(() => judge.close());
    const verdicts = await askMany(judge, 4, 4);
    expect(verdicts).toHaveLength(4);
    expect(judge.stats.calls).toBeGreaterThanOrEqual(4);
    expect(judge.stats.prompt_tokens + judge.stats.completion_tokens).toBe(0);
    // the user is told once, however many replies carried it
    const notices = events.filter((e) => e.type === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ message: expect.stringContaining('usage that is not a token count') });
  });

  it('a sane usage says nothing', async () => {
    const url = await hostileApi({ prompt_tokens: 12, completion_tokens: 7 });
    const events: ProgressEvent[] = [];
    const judge = new Judge(
      new OpenAiBackend({
        onProgress: (e) => events.push(e),
        model: 'sane',
        baseUrls: [url],
        concurrency: 1,
      }),
    );
    closers.push(() => judge.close());
    await askMany(judge, 2, 2);
    expect(judge.stats.prompt_tokens).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'notice')).toEqual([]);
  });
});
