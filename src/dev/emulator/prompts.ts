/**
 * One small handler per prompt kind the emulator answers. Each recognises its prompt by the
 * answer contract it asks for and answers from image features. Later prompt kinds (checklists,
 * guideline proposals) are added as further handlers.
 */
import { checklistHandler, groupedHandler } from './compass.js';
import type { ImageFeatures } from './features.js';
import { heroScore, weightsFor } from './rubric.js';

export interface PromptContext {
  text: string;
  images: ImageFeatures[];
  positionBias: number;
  /** The `bad-items` fault: answer wrongly item by item, where the prompt has items. */
  malformed?: boolean;
}

export interface PromptHandler {
  kind: string;
  matches(text: string): boolean;
  answer(ctx: PromptContext): unknown;
}

/** {"winner": "A"|"B"}: the first-shown image gets a small bonus (position bias), so close calls flip with placement. */
export const pairwiseHandler: PromptHandler = {
  kind: 'pairwise',
  matches: (t) => /"winner"\s*:\s*"A"\s*\|\s*"B"/.test(t),
  answer: ({ text, images, positionBias }) => {
    const w = weightsFor(text);
    const a = heroScore(images[0]!, w) + positionBias;
    const b = heroScore(images[1]!, w);
    return { winner: a >= b ? 'A' : 'B', reason: `emulator scores ${a.toFixed(3)} vs ${b.toFixed(3)}` };
  },
};

/** {"position": k}: chain images first (best first), the candidate last. */
export const listwiseHandler: PromptHandler = {
  kind: 'listwise',
  matches: (t) => /"position"\s*:/.test(t),
  answer: ({ text, images }) => {
    const w = weightsFor(text);
    const f = heroScore(images[images.length - 1]!, w);
    const position = images.slice(0, -1).filter((im) => heroScore(im, w) < f).length;
    return { position, reason: 'emulator ranking' };
  },
};

export const HANDLERS: PromptHandler[] = [pairwiseHandler, listwiseHandler, groupedHandler, checklistHandler];
