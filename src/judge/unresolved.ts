/**
 * The share of a run's judge answers that could not be read (prose, a refusal, JSON off the
 * schema, an over-long reply: `unresolved` after one re-ask). Such an answer scores as the protocol
 * says (a listwise position 0, a quality metric left out), so a judge that mostly talks prose
 * gives low scores that look like results. Every run states the share, and a run whose share is
 * above its limit (`--max-unresolved`, 5 % by default) ends with exit 5 after writing its outputs.
 */
import { z } from 'zod';
import { PartialError } from '../errors.js';

/** 5 %: a judge that fails to answer one question in twenty is a judge to look at first. */
export const DEFAULT_MAX_UNRESOLVED = 0.05;

/** The unresolved answers among the answers a run's results rest on (network or cache). */
export const UnresolvedShare = z.object({
  unresolved: z.number().int().nonnegative(),
  answers: z.number().int().nonnegative(),
  /** unresolved / answers; null when nothing was asked. */
  share: z.number().min(0).max(1).nullable(),
});
export type UnresolvedShare = z.infer<typeof UnresolvedShare>;

export function unresolvedShare(unresolved: number, answers: number): UnresolvedShare {
  return { unresolved, answers, share: answers > 0 ? unresolved / answers : null };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** One line for the end of a run: "unresolved: 7 of 36 judge answers (19.4 %), above the limit of 5.0 % (--max-unresolved)". */
export function unresolvedLine(u: UnresolvedShare, max: number, what = 'judge answers'): string {
  const over = u.share !== null && u.share > max;
  return `unresolved: ${u.unresolved} of ${u.answers} ${what}${u.share === null ? '' : ` (${pct(u.share)})`}, ${over ? 'above' : 'within'} the limit of ${pct(max)} (--max-unresolved)`;
}

/** Exit 5 (PartialError) when the share is above `max` (a fraction in [0, 1]); the outputs stand. */
export function checkUnresolved(
  u: UnresolvedShare,
  max: number,
  where: string,
  what = 'judge answers',
): void {
  if (u.share === null || u.share <= max) return;
  throw new PartialError(
    `${pct(u.share)} of the ${what} are unresolved (${u.unresolved} of ${u.answers}), above --max-unresolved ${pct(max)}: they scored as the protocol scores no answer; see ${where} (the results were written)`,
    [],
  );
}
