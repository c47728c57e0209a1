/** `compass align`'s inputs (a judgments file, a scores file) and its result (align.ts). */
import { z } from 'zod';

export const Judgment = z.object({
  case_id: z.string().min(1),
  model_a: z.string().min(1),
  model_b: z.string().min(1),
  dimension: z.string().min(1),
  annotator: z.string().min(1),
  choice: z.enum(['A', 'B', 'Tie']),
});
export type Judgment = z.output<typeof Judgment>;

export const AutoScore = z.object({
  case_id: z.string().min(1),
  model: z.string().min(1),
  dimension: z.string().min(1),
  score: z.number(),
});
export type AutoScore = z.output<typeof AutoScore>;

/**
 * The header row `compass export-scores` writes first: which prompt modes the scores average over
 * (by default the one the human study judged) and why. A scores file without it is read as well.
 */
export const ScoresHeader = z.object({
  header: z.literal('kfbench compass export-scores'),
  prompt_modes: z.array(z.string().min(1)).min(1),
  note: z.string(),
});
export type ScoresHeader = z.output<typeof ScoresHeader>;

/** One line of a scores file: the header (first line only) or a score. */
export const ScoresLine = z.union([ScoresHeader, AutoScore]);

export interface AlignOptions {
  B: number;
  seed: number | string;
}

export interface AlignResult {
  models: string[];
  dimensions: string[];
  win_rates: Record<string, Record<string, number>>;
  win_rates_ci: Record<string, Record<string, [number, number]>>;
  /** Per model: the mean of its dimension-level win rates. */
  overall_human: Record<string, number>;
  agreement: Record<
    string,
    {
      rate: number | null;
      ci: [number, number] | null;
      coverage: number;
      n: number;
      items: number;
      unscored: number;
    }
  >;
  spearman: Record<
    string,
    {
      rho: number | null;
      p_exact?: number;
      p_asymptotic?: number;
      ci: [number, number] | null;
      /** Cases with a human judgment in the dimension: the only ones whose automatic scores enter. */
      cases: number;
      /** Cases of the scores file with a score in the dimension but no human judgment there: left out. */
      dropped_unjudged: number;
      /** (case, model) pairs humans judged that have no automatic score: left out of that model's mean. */
      missing_scores: number;
    }
  >;
  alpha: Record<string, number | null>;
  /** α across model pairs (those with a value). */
  alpha_summary: { mean: number; min: number; max: number; pairs: number } | null;
}
