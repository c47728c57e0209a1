/** The one renderer of the progress stream, driven by events and a fake clock (no timers, no sleeps). */
import { describe, expect, it } from 'vitest';
import { PROGRESS_EVERY_ENV, renderProgress } from '../../src/cli/progress.js';
import { JUDGE_CALLS, phaseReporter } from '../../src/progress.js';

function capture(tty: boolean) {
  let clock = 0;
  let text = '';
  const r = renderProgress({
    stream: { write: (s: string) => (text += s), isTTY: tty },
    now: () => clock,
    everyMs: 5000,
  });
  return {
    r,
    tick: (ms: number) => {
      clock += ms;
    },
    lines: () => text.split('\n').filter(Boolean),
    text: () => text,
  };
}

describe('renderProgress off a terminal (a log file)', () => {
  it('a notice is one line at once, on a terminal as in a log', () => {
    for (const tty of [false, true]) {
      const c = capture(tty);
      c.r.onProgress({ type: 'notice', phase: JUDGE_CALLS, message: 'a reading fell back' });
      expect(c.text()).toContain(`${JUDGE_CALLS}: note: a reading fell back\n`);
    }
  });

  it('one line at the start, at most one every 5 s while running, every failure at once, one at the end', () => {
    const c = capture(false);
    const p = phaseReporter(c.r.onProgress, 'evaluate', 'insertions');
    p.start(10, 'listwise');
    expect(c.lines()).toEqual(['evaluate: 10 insertions to do (listwise)']);
    p.done('a');
    p.cached('b');
    c.tick(1000);
    p.done('c');
    expect(c.lines()).toHaveLength(1); // under 5 s since the last line: nothing new
    c.tick(4000);
    p.retry('d', 1, 'HTTP 503');
    p.done('d');
    // 4 of 10 in 5 s: 0.8/s; too few items for an ETA; the cache hit and the retry are counted
    expect(c.lines()[1]).toBe(
      'evaluate: 4/10 insertions (40 %), 0.8/s; 1 cached, 1 retry (last: d: HTTP 503)',
    );
    p.failed('e', 'the judge never answered');
    expect(c.lines()[2]).toBe('evaluate: FAILED e: the judge never answered');
    for (const x of ['f', 'g', 'h', 'i', 'j']) p.done(x);
    expect(c.lines()).toHaveLength(3); // no time has passed since the last line
    c.tick(5000);
    p.finish();
    expect(c.lines().at(-1)).toBe(
      'evaluate: finished 9/10 insertions in 10 s (1 cached, 1 retry (last: d: HTTP 503), 1 failed)',
    );
  });

  it('no ETA from the first items of a long phase (it would be noise); one once enough are done', () => {
    const c = capture(false);
    const p = phaseReporter(c.r.onProgress, 'judge', 'videos');
    p.start(1000);
    c.tick(30_000);
    p.done('slow first one'); // 1 in 30 s would say "ETA 499 min"
    expect(c.lines()[1]).toBe('judge: 1/1000 videos (0 %), 0.0/s');
    for (let i = 0; i < 49; i++) p.done(`v${i}`);
    c.tick(20_000);
    p.done('v50');
    // 51 of 1000 in 50 s: over 5 % done, an ETA
    expect(c.lines()[2]).toMatch(/^judge: 51\/1000 videos \(5 %\), 1\.0\/s, ETA 15 min \d+ s$/);
  });

  it('a phase that finishes every item prints its last count at once; events of an unknown phase are ignored', () => {
    const c = capture(false);
    c.r.onProgress({ type: 'item-done', phase: 'nowhere', item: 'x' });
    expect(c.text()).toBe('');
    const p = phaseReporter(c.r.onProgress, 'build', 'films');
    p.start(2);
    c.tick(2000);
    p.done('f1');
    p.done('f2'); // the last item prints at once (done = total), whatever the clock says
    p.finish();
    expect(c.lines()).toEqual([
      'build: 2 films to do',
      'build: 2/2 films (100 %), 1.0/s',
      'build: finished 2/2 films in 2 s',
    ]);
  });
});

describe('renderProgress on a terminal', () => {
  it('draws a status line per running phase, and prints failures and the end above it', () => {
    const c = capture(true);
    const p = phaseReporter(c.r.onProgress, 'rebuild', 'frames');
    p.start(4);
    c.tick(1000);
    p.done('film-a');
    p.failed('film-b', 'ffmpeg exited 1');
    c.tick(1000);
    p.finish();
    c.r.close();
    const t = c.text();
    expect(t).toContain('\r\u001b[2Krebuild: 4 frames to do\n');
    // the status line: the phase, a bar, the count (rewritten in place, no newline)
    expect(t).toContain('\r\u001b[2Krebuild [░░░░░░░░░░░░░░░░░░░░] 0/4 frames\r');
    expect(t).toContain('\r\u001b[2Krebuild: FAILED film-b: ffmpeg exited 1\n');
    expect(t).toContain('\r\u001b[2Krebuild: finished 1/4 frames in 2 s (1 failed)\n');
    expect(t).toMatch(/rebuild \[█████░+\] 1\/4 frames \| film-a/); // one item: too few for an ETA
    expect(t.endsWith('\n')).toBe(true); // the terminal is left on a fresh line
  });
});

describe("a judge's calls (in flight, completed, retried) beside the phase that asks them", () => {
  const started = { type: 'call-started', phase: JUDGE_CALLS } as const;
  const finished = { type: 'call-finished', phase: JUDGE_CALLS, ok: true } as const;
  const retry = {
    type: 'retry',
    phase: JUDGE_CALLS,
    item: 'http://127.0.0.1:9/v1',
    attempt: 1,
    reason: 'HTTP 503',
  } as const;

  it('off a terminal: a line at the first call, then at most one every 5 s, and the last word at close', () => {
    const c = capture(false);
    const p = phaseReporter(c.r.onProgress, 'judge', 'videos');
    p.start(2);
    c.r.onProgress(started);
    expect(c.lines()).toEqual(['judge: 2 videos to do', 'judge calls: 1 in flight, 0 completed']);
    c.r.onProgress(started);
    c.r.onProgress(retry);
    expect(c.lines()).toHaveLength(2); // under 5 s since the last line
    c.tick(5000);
    c.r.onProgress(finished);
    expect(c.lines()[2]).toBe(
      'judge calls: 1 in flight, 1 completed, 1 retry (last: http://127.0.0.1:9/v1: HTTP 503)',
    );
    c.r.onProgress({ ...finished, ok: false });
    expect(c.lines()).toHaveLength(3);
    c.r.close();
    expect(c.lines()[3]).toBe(
      'judge calls: 0 in flight, 1 completed, 1 failed, 1 retry (last: http://127.0.0.1:9/v1: HTTP 503)',
    );
    c.r.close(); // closing twice says nothing more
    expect(c.lines()).toHaveLength(4);
  });

  it('on a terminal: part of the status line', () => {
    const c = capture(true);
    phaseReporter(c.r.onProgress, 'evaluate', 'insertions').start(4);
    c.tick(1000);
    c.r.onProgress(started);
    expect(c.text()).toMatch(/evaluate \[░+\] 0\/4 insertions {3}judge calls 1 in flight · 0 completed/);
    c.r.close();
  });

  it(`${PROGRESS_EVERY_ENV} sets the cadence off a terminal (0: every event); a bad value is a usage error`, () => {
    const old = process.env[PROGRESS_EVERY_ENV];
    try {
      process.env[PROGRESS_EVERY_ENV] = '0';
      let text = '';
      const r = renderProgress({ stream: { write: (s: string) => (text += s), isTTY: false }, now: () => 0 });
      for (const e of [started, started, finished, finished]) r.onProgress(e);
      expect(text.split('\n').filter(Boolean)).toEqual([
        'judge calls: 1 in flight, 0 completed',
        'judge calls: 2 in flight, 0 completed',
        'judge calls: 1 in flight, 1 completed',
        'judge calls: 0 in flight, 2 completed',
      ]);
      process.env[PROGRESS_EVERY_ENV] = 'soon';
      expect(() => renderProgress()).toThrow(/KFBENCH_PROGRESS_EVERY_S=soon: expected a number of seconds/);
    } finally {
      if (old === undefined) delete process.env[PROGRESS_EVERY_ENV];
      else process.env[PROGRESS_EVERY_ENV] = old;
    }
  });
});
