/**
 * How a listwise reply says where the candidate goes (issue 54 item 4): the JSON field that holds
 * it and what its value counts. A prompt may ask for
 *  - `beaten`: the number of chain images the candidate is better than (0…n; kfbench's own
 *    wording, `{"position": n}`);
 *  - `rank-best`: the candidate's rank among all n + 1 images, 1 = the best (beaten = n + 1 − rank);
 *  - `rank-worst`: its rank among all n + 1 images, 1 = the worst (beaten = rank − 1);
 *  - `image-id`: the label of the chain image the candidate goes directly above (1…n, the labels
 *    the request shows; n + 1, the candidate's own label, or "none" = below every chain image):
 *    beaten = n + 1 − k.
 * The value is read into the number of chain images beaten, the position every score uses.
 */
import { z } from 'zod';

const ANSWER_KINDS = ['beaten', 'rank-best', 'rank-worst', 'image-id'] as const;
type AnswerKind = (typeof ANSWER_KINDS)[number];

export interface ListwiseAnswerFormat {
  kind: AnswerKind;
  /** The reply's JSON field that holds the answer. */
  field: string;
}

/** kfbench's own listwise wording: `{"position": <chain images beaten>}`. */
export const BEATEN_POSITION: ListwiseAnswerFormat = { kind: 'beaten', field: 'position' };

/** The reply's schema: the field (a number, or a label as text) and an optional reason. */
export function answerSchema(f: ListwiseAnswerFormat) {
  return z.looseObject({ [f.field]: z.union([z.number(), z.string()]), reason: z.string().optional() });
}

/** An integer from a reply value: 3, "3", "Image 3", "image 3" (else null). */
function integerOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^\s*(?:image\s*#?\s*)?(\d+)\s*$/i.exec(v);
  return m ? Number(m[1]) : null;
}

/**
 * The number of chain images beaten (0…n) that a reply's value says, for a chain of n images, or
 * the reason it cannot be read (out of range, not an integer).
 */
export function beatenOf(
  f: ListwiseAnswerFormat,
  value: unknown,
  n: number,
): { position: number } | { unresolved: string } {
  if (f.kind === 'image-id' && typeof value === 'string' && /^\s*none\s*$/i.test(value))
    return { position: 0 };
  const k = integerOf(value);
  const bad = (range: string) => ({
    unresolved: `"${f.field}": ${JSON.stringify(value)} is not ${range} (${f.kind} answer)`,
  });
  switch (f.kind) {
    case 'beaten':
      return k !== null && k >= 0 && k <= n ? { position: k } : bad(`an integer 0–${n}`);
    case 'rank-best':
      return k !== null && k >= 1 && k <= n + 1 ? { position: n + 1 - k } : bad(`a rank 1–${n + 1}`);
    case 'rank-worst':
      return k !== null && k >= 1 && k <= n + 1 ? { position: k - 1 } : bad(`a rank 1–${n + 1}`);
    case 'image-id':
      return k !== null && k >= 1 && k <= n + 1 ? { position: n + 1 - k } : bad(`an image label 1–${n + 1}`);
  }
}
