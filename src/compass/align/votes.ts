/** `compass align`: votes on unordered model pairs, and win rates (a vote for the model 1, a tie ½, a loss 0). */
import type { Judgment } from '../schemas/align.js';

export const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
/** The model a vote chose, or "tie". */
export const chosen = (v: Judgment) =>
  v.choice === 'Tie' ? 'tie' : v.choice === 'A' ? v.model_a : v.model_b;

export function winRates(votes: readonly Judgment[], models: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of models) {
    let s = 0;
    let n = 0;
    for (const v of votes) {
      if (v.model_a !== m && v.model_b !== m) continue;
      n++;
      const c = chosen(v);
      s += c === m ? 1 : c === 'tie' ? 0.5 : 0;
    }
    if (n) out[m] = s / n;
  }
  return out;
}
