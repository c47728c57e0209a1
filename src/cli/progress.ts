/**
 * Progress rendered at the edge: a bar with an ETA on a terminal (stderr), periodic plain lines
 * otherwise. Library code only emits events.
 */
import cliProgress from 'cli-progress';

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
