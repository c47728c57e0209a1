/**
 * The judge's verdicts behind one insertion, kept in `insertions.jsonl` so a reader can see why a
 * frame landed where it did (the viewer shows them one click away): for pairwise and binary, one
 * entry per chain image compared against; for listwise, the position answered in each order the
 * chain was shown (one, or two with `--both-orders`).
 */
import type { InsertionOutcome } from '../judge/insertion.js';
import type { PlacementVerdict } from '../judge/pairwise.js';

export interface InsertionVerdict {
  /** The chain image compared against; absent for a listwise answer. */
  against?: string;
  /** Pairwise/binary: who won ('frame' = the submitted frame); null when unresolved. */
  winner?: 'frame' | 'chain' | null;
  /** Listwise: the position answered (images placed below the frame); null when unresolved. */
  position?: number | null;
  /** Listwise: the order the chain was shown in for this answer. */
  order?: 'best-first' | 'worst-first';
  status: 'confident' | 'unresolved';
  /** What the judge said in each placement (its reason, or why the reply was unresolved). */
  reasons: string[];
}

const PLACEMENT: Record<PlacementVerdict['placement'], string> = {
  'first-shown-first': 'frame shown first',
  'second-shown-first': 'frame shown second',
};

function said(v: PlacementVerdict): string {
  const who = v.winner === null ? 'no answer' : v.winner === 'A' ? 'picked A' : 'picked B';
  const why = v.reason ?? v.unresolved ?? '';
  return `${PLACEMENT[v.placement]}: ${who}${why ? ` — ${why}` : ''}`;
}

export function insertionVerdicts(out: InsertionOutcome, order: readonly string[]): InsertionVerdict[] {
  if (out.listwise) {
    const answers = out.listwise.answers;
    return answers.map((a) => {
      const why = a.reason ?? a.unresolved ?? '';
      return {
        position: a.position,
        order: a.order,
        status: a.position === null || out.disagreed ? 'unresolved' : 'confident',
        reasons: [
          `chain shown ${a.order === 'best-first' ? 'best' : 'worst'} first: ${a.position === null ? 'no answer' : `position ${a.position}`}${why ? ` — ${why}` : ''}`,
        ],
      };
    });
  }
  return [...out.comparisons]
    .sort((a, b) => a.index - b.index)
    .map(({ index, outcome }) => ({
      against: order[index]!,
      winner: outcome.winner === null ? null : outcome.winner === 'A' ? 'frame' : 'chain',
      status: outcome.status,
      reasons: outcome.verdicts.map(said),
    }));
}
