/** Horizontal bar charts with interval whiskers, drawn as our own SVG (no script, no network). */
import { f3, type Html, html } from './html.js';

export interface Bar {
  label: string;
  value: number | null;
  lo?: number | null;
  hi?: number | null;
  /** Drawn hatched/grey: an official row or a reference. */
  muted?: boolean;
  note?: string;
}

const ok = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

export function barChart(bars: readonly Bar[], o: { label: string; width?: number; max?: number }): Html {
  const W = o.width ?? 640;
  const left = 200;
  const right = W - 60;
  const rowH = 24;
  const max = o.max ?? 1;
  const x = (v: number) => left + (Math.max(0, Math.min(max, v)) / max) * (right - left);
  const H = 30 + bars.length * rowH;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * max);
  return html`<svg class="chart" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${o.label}">
${ticks.map((t) => html`<line x1="${x(t)}" x2="${x(t)}" y1="4" y2="${H - 22}" class="grid"/><text x="${x(t)}" y="${H - 8}" text-anchor="middle">${t}</text>`)}
${bars.map((b, i) => {
  const y = 6 + i * rowH;
  const tip = `${b.label}: ${f3(b.value)}${ok(b.lo) && ok(b.hi) ? ` [${f3(b.lo)}, ${f3(b.hi)}]` : ''}${b.note ? ` — ${b.note}` : ''}`;
  return html`<g class="bar${b.muted ? ' muted' : ''}" data-label="${b.label}"><title>${tip}</title>
<text x="${left - 6}" y="${y + 14}" text-anchor="end">${b.label.length > 30 ? `${b.label.slice(0, 29)}…` : b.label}</text>
${ok(b.value) ? html`<rect x="${left}" y="${y + 3}" width="${x(b.value) - left}" height="15"/>` : html`<text x="${left + 4}" y="${y + 14}" class="na">not measured</text>`}
${ok(b.lo) && ok(b.hi) ? html`<line class="whisker" x1="${x(b.lo)}" x2="${x(b.hi)}" y1="${y + 10}" y2="${y + 10}"/><line class="whisker" x1="${x(b.lo)}" x2="${x(b.lo)}" y1="${y + 4}" y2="${y + 16}"/><line class="whisker" x1="${x(b.hi)}" x2="${x(b.hi)}" y1="${y + 4}" y2="${y + 16}"/>` : ''}
${ok(b.value) ? html`<text x="${right + 4}" y="${y + 14}">${f3(b.value)}</text>` : ''}</g>`;
})}</svg>`;
}

/** A small horizontal strength bar (0–100). */
export function strengthBar(value: number, title: string): Html {
  const w = Math.max(0, Math.min(100, value));
  return html`<svg class="strength" width="100" height="8" viewBox="0 0 100 8" role="img" aria-label="${title}"><title>${title}</title><rect class="track" x="0" y="0" width="100" height="8"/><rect class="fill" x="0" y="0" width="${w}" height="8"/></svg>`;
}
