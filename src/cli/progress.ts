/**
 * The only renderer of the progress stream (`src/progress.ts`), on stderr: on a terminal a bar per
 * phase with its rate and ETA; otherwise (a pipe, a cluster job's log) one line when a phase
 * starts, a line at most every few seconds while it runs, every failure at once, and a closing
 * line — what a log file wants. Library code only emits events; results go to stdout or files.
 */
import cliProgress from 'cli-progress';
import type { OnProgress, ProgressEvent } from '../progress.js';

export interface RenderOptions {
  /** Where to draw (default: process.stderr). */
  stream?: { write(s: string): unknown; isTTY?: boolean };
  /** Draw a bar (default: whether the stream is a terminal). */
  tty?: boolean;
  /** The clock (milliseconds), for the line cadence and the ETA. */
  now?: () => number;
  /** Least time between two progress lines when not on a terminal (default 5 s). */
  everyMs?: number;
}

export interface ProgressRenderer {
  onProgress: OnProgress;
  /** Stops any bar still drawn (call once the command is done, also after an error). */
  close(): void;
}

interface PhaseState {
  total: number;
  unit: string;
  note: string;
  done: number;
  cached: number;
  retries: number;
  failures: number;
  lastRetry: string;
  t0: number;
  lastLine: number;
  bar?: cliProgress.SingleBar;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function counts(p: PhaseState): string {
  const parts = [
    p.cached ? `${p.cached} cached` : '',
    p.retries
      ? `${plural(p.retries, 'retry', 'retries')}${p.lastRetry ? ` (last: ${p.lastRetry})` : ''}`
      : '',
    p.failures ? `${p.failures} failed` : '',
  ].filter(Boolean);
  return parts.join(', ');
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function renderProgress(o: RenderOptions = {}): ProgressRenderer {
  const stream = o.stream ?? process.stderr;
  const tty = o.tty ?? !!stream.isTTY;
  const now = o.now ?? Date.now;
  const every = o.everyMs ?? 5000;
  const phases = new Map<string, PhaseState>();
  const write = (line: string) => {
    // on a terminal, clear the bar's line first; the bar redraws on its next update
    stream.write(tty ? `\r\x1b[2K${line}\n` : `${line}\n`);
  };
  const line = (phase: string, p: PhaseState): string => {
    const elapsed = Math.max(1, now() - p.t0);
    const rate = (p.done * 1000) / elapsed;
    const eta = rate > 0 && p.total > p.done ? `, ETA ${seconds(((p.total - p.done) / rate) * 1000)}` : '';
    const pct = p.total ? ` (${Math.floor((100 * p.done) / p.total)} %)` : '';
    const extra = counts(p);
    return `${phase}: ${p.done}/${p.total} ${p.unit}${pct}, ${rate.toFixed(1)}/s${eta}${extra ? `; ${extra}` : ''}`;
  };
  const update = (phase: string, p: PhaseState, item: string) => {
    if (p.bar) {
      p.bar.update(p.done, { extra: [counts(p), item].filter(Boolean).join(' · ') });
      return;
    }
    const t = now();
    if (t - p.lastLine < every && p.done < p.total) return;
    p.lastLine = t;
    write(line(phase, p));
  };
  const onProgress = (e: ProgressEvent): void => {
    if (e.type === 'phase-started') {
      phases.get(e.phase)?.bar?.stop();
      const p: PhaseState = {
        total: e.total,
        unit: e.unit,
        note: e.note ?? '',
        done: 0,
        cached: 0,
        retries: 0,
        failures: 0,
        lastRetry: '',
        t0: now(),
        lastLine: now(),
      };
      phases.set(e.phase, p);
      if (tty) {
        p.bar = new cliProgress.SingleBar(
          {
            format: `${e.phase} [{bar}] {value}/{total} ${e.unit} | ETA {eta_formatted} | {extra}`,
            stream: stream as NodeJS.WritableStream,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        );
        p.bar.start(e.total, 0, { extra: p.note });
      } else write(`${e.phase}: ${plural(e.total, e.unit, e.unit)} to do${p.note ? ` (${p.note})` : ''}`);
      return;
    }
    const p = phases.get(e.phase);
    if (!p) return; // an event of a phase never started: nothing to draw it against
    switch (e.type) {
      case 'item-done':
        p.done++;
        update(e.phase, p, e.item);
        break;
      case 'cache-hit':
        p.done++;
        p.cached++;
        update(e.phase, p, e.item);
        break;
      case 'retry':
        p.retries++;
        p.lastRetry = `${e.item}: ${e.reason}`;
        break;
      case 'failure':
        p.failures++;
        write(`${e.phase}: FAILED ${e.item}: ${e.reason}`);
        break;
      case 'phase-finished': {
        p.bar?.stop();
        delete p.bar;
        const extra = counts(p);
        write(
          `${e.phase}: finished ${e.done}/${p.total} ${p.unit} in ${seconds(now() - p.t0)}${extra ? ` (${extra})` : ''}`,
        );
        phases.delete(e.phase);
        break;
      }
    }
  };
  return {
    onProgress,
    close: () => {
      for (const p of phases.values()) p.bar?.stop();
      phases.clear();
    },
  };
}

/**
 * The older counter-style interface, kept while the pipelines move to the event stream: a bar with
 * an ETA on a terminal, periodic plain lines otherwise.
 */
export interface Progress {
  start(total: number, label: string): void;
  update(done: number, extra?: string): void;
  stop(): void;
}

export function progress(unit: string): Progress {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `{label} [{bar}] {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted} {extra}`,
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    const t0 = Date.now();
    return {
      start: (total, label) => bar.start(total, 0, { label, rate: '0', extra: '' }),
      update: (done, extra = '') =>
        bar.update(done, { rate: (done / Math.max(0.001, (Date.now() - t0) / 1000)).toFixed(1), extra }),
      stop: () => bar.stop(),
    };
  }
  let total = 0;
  let last = 0;
  let label = '';
  const t0 = Date.now();
  return {
    start: (t, l) => {
      total = t;
      label = l;
      process.stderr.write(`${label}: ${total} ${unit} to do\n`);
    },
    update: (done, extra = '') => {
      const now = Date.now();
      if (now - last < 5000 && done < total) return;
      last = now;
      const rate = done / Math.max(0.001, (now - t0) / 1000);
      const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
      process.stderr.write(
        `${label}: ${done}/${total} ${unit} (${rate.toFixed(1)}/s, ETA ${eta} s) ${extra}\n`,
      );
    },
    stop: () => undefined,
  };
}
