/**
 * The only renderer of the progress stream (`src/progress.ts`), on stderr: on a terminal a bar per
 * phase with its rate and ETA; otherwise (a pipe, a cluster job's log) one line when a phase
 * starts, a line at most every few seconds while it runs, every failure at once, and a closing
 * line — what a log file wants. A judge's calls (JUDGE_CALLS) run beside the phase that asks them:
 * their count in flight, completed and retried is a line of its own (at its first call, then on
 * the same cadence, and once more when the command is done) or a part of the terminal's status
 * line. Library code only emits events; results go to stdout or files.
 */
import { UsageError } from '../errors.js';
import type { OnProgress, ProgressEvent } from '../progress.js';

export interface RenderOptions {
  /** Where to draw (default: process.stderr). */
  stream?: { write(s: string): unknown; isTTY?: boolean };
  /** Draw a bar (default: whether the stream is a terminal). */
  tty?: boolean;
  /** The clock (milliseconds), for the line cadence and the ETA. */
  now?: () => number;
  /** Least time between two progress lines when not on a terminal (default: KFBENCH_PROGRESS_EVERY_S, else 5 s). */
  everyMs?: number;
}

/** `KFBENCH_PROGRESS_EVERY_S`: seconds between two progress lines off a terminal (0: every event). */
export const PROGRESS_EVERY_ENV = 'KFBENCH_PROGRESS_EVERY_S';

function everyFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const v = env[PROGRESS_EVERY_ENV];
  if (v === undefined || v === '') return undefined;
  const s = Number(v);
  if (!Number.isFinite(s) || s < 0)
    throw new UsageError(`${PROGRESS_EVERY_ENV}=${v}: expected a number of seconds ≥ 0`);
  return s * 1000;
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
  lastItem: string;
  t0: number;
  lastLine: number;
}

/** A judge's calls: not items of a phase (no total), counted as they go out and come back. */
interface CallsState {
  inflight: number;
  completed: number;
  failed: number;
  retries: number;
  lastRetry: string;
  lastLine: number;
  /** Something changed since the last line written. */
  dirty: boolean;
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

function callCounts(c: CallsState, sep: string): string {
  return [
    `${c.inflight} in flight`,
    `${c.completed} completed`,
    c.failed ? `${c.failed} failed` : '',
    c.retries
      ? `${plural(c.retries, 'retry', 'retries')}${c.lastRetry ? ` (last: ${c.lastRetry})` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join(sep);
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const BAR = 20;
/** An ETA is shown once this many items, and this share of the phase, are done. */
const ETA_AFTER_ITEMS = 5;
const ETA_AFTER_SHARE = 0.05;
/** Least time between two redraws of the terminal line. */
const REDRAW_MS = 100;

export function renderProgress(o: RenderOptions = {}): ProgressRenderer {
  const stream = o.stream ?? process.stderr;
  const tty = o.tty ?? !!stream.isTTY;
  const now = o.now ?? Date.now;
  const every = o.everyMs ?? everyFromEnv() ?? 5000;
  const phases = new Map<string, PhaseState>();
  const calls = new Map<string, CallsState>();
  let status = false; // a status line is drawn at the bottom (terminal only)
  let lastDraw = Number.NEGATIVE_INFINITY;
  const rate = (p: PhaseState) => (p.done * 1000) / Math.max(1, now() - p.t0);
  // an ETA from the first few items is noise (warm-up, cache hits, one slow call): none until
  // enough of the phase is done to say something
  const eta = (p: PhaseState) => {
    const r = rate(p);
    const enough = p.done >= Math.max(ETA_AFTER_ITEMS, Math.ceil(p.total * ETA_AFTER_SHARE));
    return enough && r > 0 && p.total > p.done ? seconds(((p.total - p.done) / r) * 1000) : '';
  };
  /** On a terminal: every running phase on one line, rewritten in place. */
  const draw = (force: boolean) => {
    if (!tty || phases.size + calls.size === 0) return;
    const t = now();
    if (!force && t - lastDraw < REDRAW_MS) return;
    lastDraw = t;
    const parts = [...phases].map(([phase, p]) => {
      const filled = p.total ? Math.round((BAR * Math.min(p.done, p.total)) / p.total) : 0;
      const e = eta(p);
      const extra = [counts(p), p.lastItem].filter(Boolean).join(' · ');
      return `${phase} [${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}] ${p.done}/${p.total} ${p.unit}${e ? ` | ETA ${e}` : ''}${extra ? ` | ${extra}` : ''}`;
    });
    for (const [phase, c] of calls) parts.push(`${phase} ${callCounts(c, ' · ')}`);
    stream.write(`\r\x1b[2K${parts.join('   ')}`);
    status = parts.length > 0;
  };
  /** A line of its own: on a terminal above the status line, which is then drawn again. */
  const write = (line: string) => {
    stream.write(tty ? `\r\x1b[2K${line}\n` : `${line}\n`);
    status = false;
    draw(true);
  };
  const callsLine = (phase: string, c: CallsState) => {
    c.lastLine = now();
    c.dirty = false;
    write(`${phase}: ${callCounts(c, ', ')}`);
  };
  /** A change to a judge's calls: a line at once for the first, then on the cadence (off a terminal). */
  const callsUpdate = (phase: string, c: CallsState, first: boolean) => {
    c.dirty = true;
    if (tty) return draw(false);
    if (first || now() - c.lastLine >= every) callsLine(phase, c);
  };
  const line = (phase: string, p: PhaseState): string => {
    const e = eta(p);
    const pct = p.total ? ` (${Math.floor((100 * p.done) / p.total)} %)` : '';
    const extra = counts(p);
    return `${phase}: ${p.done}/${p.total} ${p.unit}${pct}, ${rate(p).toFixed(1)}/s${e ? `, ETA ${e}` : ''}${extra ? `; ${extra}` : ''}`;
  };
  const update = (phase: string, p: PhaseState) => {
    if (tty) return draw(p.done >= p.total);
    const t = now();
    if (t - p.lastLine < every && p.done < p.total) return;
    p.lastLine = t;
    write(line(phase, p));
  };
  const onProgress = (e: ProgressEvent): void => {
    if (e.type === 'call-started' || e.type === 'call-finished') {
      let c = calls.get(e.phase);
      const first = !c;
      if (!c) {
        c = {
          inflight: 0,
          completed: 0,
          failed: 0,
          retries: 0,
          lastRetry: '',
          lastLine: now(),
          dirty: false,
        };
        calls.set(e.phase, c);
      }
      if (e.type === 'call-started') c.inflight++;
      else {
        c.inflight = Math.max(0, c.inflight - 1);
        if (e.ok) c.completed++;
        else c.failed++;
      }
      callsUpdate(e.phase, c, first);
      return;
    }
    if (e.type === 'retry' && !phases.has(e.phase) && calls.has(e.phase)) {
      const c = calls.get(e.phase)!;
      c.retries++;
      c.lastRetry = `${e.item}: ${e.reason}`;
      callsUpdate(e.phase, c, false);
      return;
    }
    if (e.type === 'phase-started') {
      const p: PhaseState = {
        total: e.total,
        unit: e.unit,
        note: e.note ?? '',
        done: 0,
        cached: 0,
        retries: 0,
        failures: 0,
        lastRetry: '',
        lastItem: '',
        t0: now(),
        lastLine: now(),
      };
      phases.set(e.phase, p);
      write(`${e.phase}: ${plural(e.total, e.unit, e.unit)} to do${p.note ? ` (${p.note})` : ''}`);
      return;
    }
    const p = phases.get(e.phase);
    if (!p) return; // an event of a phase never started: nothing to draw it against
    switch (e.type) {
      case 'item-done':
        p.done++;
        p.lastItem = e.item;
        update(e.phase, p);
        break;
      case 'cache-hit':
        p.done++;
        p.cached++;
        p.lastItem = e.item;
        update(e.phase, p);
        break;
      case 'retry':
        p.retries++;
        p.lastRetry = `${e.item}: ${e.reason}`;
        draw(false);
        break;
      case 'failure':
        p.failures++;
        write(`${e.phase}: FAILED ${e.item}: ${e.reason}`);
        break;
      case 'phase-finished': {
        phases.delete(e.phase);
        const extra = counts(p);
        write(
          `${e.phase}: finished ${e.done}/${p.total} ${p.unit} in ${seconds(now() - p.t0)}${extra ? ` (${extra})` : ''}`,
        );
        break;
      }
    }
  };
  return {
    onProgress,
    close: () => {
      // leave the terminal on a fresh line
      if (tty && status) stream.write('\r\x1b[2K');
      status = false;
      phases.clear();
      // a log's last word on the judge's calls (the terminal showed them all along)
      if (!tty) for (const [phase, c] of calls) if (c.dirty) callsLine(phase, c);
      calls.clear();
    },
  };
}
