import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { withLinkedSignal } from '../../src/concurrency/abort.js';

describe('withLinkedSignal', () => {
  it('aborts the call when any source aborts, with that source’s reason', async () => {
    const a = new AbortController();
    const b = new AbortController();
    const seen = withLinkedSignal(
      [a.signal, b.signal],
      (s) =>
        new Promise((_, reject) => {
          s!.addEventListener('abort', () => reject(s!.reason), { once: true });
        }),
    );
    b.abort(new Error('gate closed'));
    await expect(seen).rejects.toThrow('gate closed');
  });

  it('a source aborted before the call: the signal is aborted at once', async () => {
    const a = new AbortController();
    a.abort(new Error('already'));
    const aborted = await withLinkedSignal([a.signal, new AbortController().signal], async (s) => s!.aborted);
    expect(aborted).toBe(true);
  });

  it('one source: passed through unless the call asks for its own; none: undefined', async () => {
    const a = new AbortController();
    expect(await withLinkedSignal([a.signal, undefined], async (s) => s)).toBe(a.signal);
    const own = await withLinkedSignal([a.signal], async (s) => s, { own: true });
    expect(own).not.toBe(a.signal);
    expect(await withLinkedSignal([undefined], async (s) => s)).toBeUndefined();
  });

  it('10,000 calls on one long-lived source leave one listener on it and none linked after they end', async () => {
    const longLived = new AbortController();
    const signals: AbortSignal[] = [];
    await Promise.all(
      Array.from({ length: 10_000 }, () =>
        withLinkedSignal([longLived.signal, new AbortController().signal], async (s) => {
          signals.push(s!);
        }),
      ),
    );
    expect(getEventListeners(longLived.signal, 'abort')).toHaveLength(1);
    longLived.abort(new Error('late'));
    // finished calls are unlinked: aborting the source afterwards reaches none of them
    expect(signals.filter((s) => s.aborted)).toHaveLength(0);
  });

  it('calls in flight when the source aborts are all reached through the one listener', async () => {
    const longLived = new AbortController();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const signals: AbortSignal[] = [];
    const calls = Array.from({ length: 50 }, () =>
      withLinkedSignal(
        [longLived.signal],
        async (s) => {
          signals.push(s!);
          await gate;
        },
        { own: true },
      ),
    );
    await new Promise((r) => setImmediate(r));
    expect(getEventListeners(longLived.signal, 'abort')).toHaveLength(1);
    longLived.abort(new Error('ctrl-c'));
    expect(signals.filter((s) => s.aborted)).toHaveLength(50);
    release();
    await Promise.all(calls);
  });
});
