/**
 * How far a method closes the distance from random frames to human publicity stills (issue 54
 * item 6). The card: "Random frames land at 0.501, against the 0.5 implied by construction. Human
 * publicity stills reach 0.722. The strongest method measured so far reaches 0.586 — 38% of the way
 * from random to human." Reading: share = (S − S_random) / (S_stills − S_random), with S_random the
 * row named `random` (a submission or an official row) and S_stills the stills row
 * (`--include-stills`, or an official row of that name); absent without both.
 */
import type { MethodSummary } from './results.js';
import { STILL_ROW } from './score.js';

export interface RandomToHuman {
  random: number;
  human: number;
  /** Every other row with an S: the share of the distance it closes (negative below random). */
  rows: { method: string; S: number; share: number }[];
}

export function randomToHuman(rows: readonly MethodSummary[]): RandomToHuman | undefined {
  const s = (name: string) => rows.find((r) => r.method === name && typeof r.S === 'number')?.S ?? undefined;
  const random = s('random');
  const human = s(STILL_ROW);
  if (random === undefined || human === undefined || human === random) return undefined;
  const seen = new Set<string>();
  const out: RandomToHuman['rows'] = [];
  for (const r of rows) {
    if (r.method === 'random' || r.method === STILL_ROW || typeof r.S !== 'number' || seen.has(r.method))
      continue;
    seen.add(r.method);
    out.push({ method: r.method, S: r.S, share: (r.S - random) / (human - random) });
  }
  return { random, human, rows: out.sort((a, b) => b.share - a.share || a.method.localeCompare(b.method)) };
}

/** The lines a report prints (none without a random and a stills row). */
export function randomToHumanLines(rows: readonly MethodSummary[]): string[] {
  const r = randomToHuman(rows);
  if (!r) return [];
  return [
    `from random (${r.random.toFixed(3)}) to human stills (${r.human.toFixed(3)}), as the card's "0.586 — 38% of the way from random to human":`,
    ...r.rows.map((x) => `  ${x.method}: S ${x.S.toFixed(3)}, ${(100 * x.share).toFixed(1)} % of the way`),
  ];
}
