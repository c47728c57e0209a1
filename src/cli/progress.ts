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

/** The renderer's state and its drawing; `renderProgress` hands out its `onProgress` and `close`. */
class ProgressView {
  private readonly stream: { write(s: string): unknown; isTTY?: boolean };
  private readonly tty: boolean;
  private readonly now: () => number;
  private readonly every: number;
  private readonly phases = new Map<string, PhaseState>();
  private readonly calls = new Map<string, CallsState>();
  /** A status line is drawn at the bottom (terminal only). */
  private status = false;
  private lastDraw = Number.NEGATIVE_INFINITY;

  constructor(o: RenderOptions) {
    this.stream = o.stream ?? process.stderr;
    this.tty = o.tty ?? !!this.stream.isTTY;
    this.now = o.now ?? Date.now;
    this.every = o.everyMs ?? everyFromEnv() ?? 5000;
  }

  private rate(p: PhaseState): number {
    return (p.done * 1000) / Math.max(1, this.now() - p.t0);
  }

  /**
   * An ETA from the first few items is noise (warm-up, cache hits, one slow call): none until
   * enough of the phase is done to say something.
   */
  private eta(p: PhaseState): string {
    const r = this.rate(p);
    const enough = p.done >= Math.max(ETA_AFTER_ITEMS, Math.ceil(p.total * ETA_AFTER_SHARE));
    return enough && r > 0 && p.total > p.done ? seconds(((p.total - p.done) / r) * 1000) : '';
  }

  /** On a terminal: every running phase on one line, rewritten in place. */
  private draw(force: boolean): void {
    if (!this.tty || this.phases.size + this.calls.size === 0) return;
    const t = this.now();
    if (!force && t - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = t;
    const parts = [...this.phases].map(([phase, p]) => {
      const filled = p.total ? Math.round((BAR * Math.min(p.done, p.total)) / p.total) : 0;
      const e = this.eta(p);
      const extra = [counts(p), p.lastItem].filter(Boolean).join(' · ');
      return `${phase} [${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}] ${p.done}/${p.total} ${p.unit}${e ? ` | ETA ${e}` : ''}${extra ? ` | ${extra}` : ''}`;
    });
    for (const [phase, c] of this.calls) parts.push(`${phase} ${callCounts(c, ' · ')}`);
    this.stream.write(`\r\x1b[2K${parts.join('   ')}`);
    this.status = parts.length > 0;
  }

  /** A line of its own: on a terminal above the status line, which is then drawn again. */
  private write(line: string): void {
    this.stream.write(this.tty ? `\r\x1b[2K${line}\n` : `${line}\n`);
    this.status = false;
    this.draw(true);
  }

  private callsLine(phase: string, c: CallsState): void {
    c.lastLine = this.now();
    c.dirty = false;
    this.write(`${phase}: ${callCounts(c, ', ')}`);
  }

  /** A change to a judge's calls: a line at once for the first, then on the cadence (off a terminal). */
  private callsUpdate(phase: string, c: CallsState, first: boolean): void {
    c.dirty = true;
    if (this.tty) {
      this.draw(false);
      return;
    }
    if (first || this.now() - c.lastLine >= this.every) this.callsLine(phase, c);
  }

  private line(phase: string, p: PhaseState): string {
    const e = this.eta(p);
    const pct = p.total ? ` (${Math.floor((100 * p.done) / p.total)} %)` : '';
    const extra = counts(p);
    return `${phase}: ${p.done}/${p.total} ${p.unit}${pct}, ${this.rate(p).toFixed(1)}/s${e ? `, ETA ${e}` : ''}${extra ? `; ${extra}` : ''}`;
  }

  private update(phase: string, p: PhaseState): void {
    if (this.tty) {
      this.draw(p.done >= p.total);
      return;
    }
    const t = this.now();
    if (t - p.lastLine < this.every && p.done < p.total) return;
    p.lastLine = t;
    this.write(this.line(phase, p));
  }

  /** A judge's call went out or came back. */
  private onCall(e: Extract<ProgressEvent, { type: 'call-started' | 'call-finished' }>): void {
    let c = this.calls.get(e.phase);
    const first = !c;
    if (!c) {
      c = {
        inflight: 0,
        completed: 0,
        failed: 0,
        retries: 0,
        lastRetry: '',
        lastLine: this.now(),
        dirty: false,
      };
      this.calls.set(e.phase, c);
    }
    if (e.type === 'call-started') c.inflight++;
    else {
      c.inflight = Math.max(0, c.inflight - 1);
      if (e.ok) c.completed++;
      else c.failed++;
    }
    this.callsUpdate(e.phase, c, first);
  }

  private onPhaseStarted(e: Extract<ProgressEvent, { type: 'phase-started' }>): void {
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
      t0: this.now(),
      lastLine: this.now(),
    };
    this.phases.set(e.phase, p);
    this.write(`${e.phase}: ${plural(e.total, e.unit, e.unit)} to do${p.note ? ` (${p.note})` : ''}`);
  }

  /** An event of a phase that started. */
  private onPhaseEvent(e: ProgressEvent, p: PhaseState): void {
    switch (e.type) {
      case 'item-done':
      case 'cache-hit':
        p.done++;
        if (e.type === 'cache-hit') p.cached++;
        p.lastItem = e.item;
        this.update(e.phase, p);
        break;
      case 'retry':
        p.retries++;
        p.lastRetry = `${e.item}: ${e.reason}`;
        this.draw(false);
        break;
      case 'failure':
        p.failures++;
        this.write(`${e.phase}: FAILED ${e.item}: ${e.reason}`);
        break;
      case 'phase-finished': {
        this.phases.delete(e.phase);
        const extra = counts(p);
        this.write(
          `${e.phase}: finished ${e.done}/${p.total} ${p.unit} in ${seconds(this.now() - p.t0)}${extra ? ` (${extra})` : ''}`,
        );
        break;
      }
    }
  }

  readonly onProgress = (e: ProgressEvent): void => {
    const c = this.calls.get(e.phase);
    if (e.type === 'call-started' || e.type === 'call-finished') this.onCall(e);
    else if (e.type === 'retry' && !this.phases.has(e.phase) && c) {
      c.retries++;
      c.lastRetry = `${e.item}: ${e.reason}`;
      this.callsUpdate(e.phase, c, false);
    } else if (e.type === 'phase-started') this.onPhaseStarted(e);
    else if (e.type === 'notice') this.write(`${e.phase}: note: ${e.message}`);
    else {
      const p = this.phases.get(e.phase);
      if (p) this.onPhaseEvent(e, p); // an event of a phase never started: nothing to draw it against
    }
  };

  readonly close = (): void => {
    // leave the terminal on a fresh line
    if (this.tty && this.status) this.stream.write('\r\x1b[2K');
    this.status = false;
    this.phases.clear();
    // a log's last word on the judge's calls (the terminal showed them all along)
    if (!this.tty) for (const [phase, c] of this.calls) if (c.dirty) this.callsLine(phase, c);
    this.calls.clear();
  };
}

export function renderProgress(o: RenderOptions = {}): ProgressRenderer {
  const view = new ProgressView(o);
  return { onProgress: view.onProgress, close: view.close };
}
