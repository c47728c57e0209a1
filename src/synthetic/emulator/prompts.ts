/**
 * One small handler per prompt kind the emulator answers. Each recognises its prompt by the
 * answer contract it asks for and answers from image features. Later prompt kinds (checklists,
 * guideline proposals) are added as further handlers.
 */
import { checklistHandler, groupedHandler, segmentHandler } from './compass.js';
import type { ScoredFeature } from './features.js';
import type { PromptHandler } from './handler.js';
import { BASE_WEIGHTS, heroScore, weightsFor } from './rubric.js';

/**
 * {"winner": "A"|"B"}: the first-shown image gets a small bonus (position bias), so close calls
 * flip with placement; the image labelled "A" gets `labelBias`. The letters follow the prompt:
 * "Image B is the first image shown" (the relabelled question) puts B on the first image.
 */
const pairwiseHandler: PromptHandler = {
  kind: 'pairwise',
  matches: (t) => /"winner"\s*:\s*"A"\s*\|\s*"B"/.test(t),
  answer: ({ text, images, positionBias, labelBias = 0 }) => {
    const w = weightsFor(text);
    const [first, second] = /Image B is the first image shown/.test(text) ? ['B', 'A'] : ['A', 'B'];
    const a = heroScore(images[0]!, w) + positionBias + (first === 'A' ? labelBias : 0);
    const b = heroScore(images[1]!, w) + (second === 'A' ? labelBias : 0);
    return { winner: a >= b ? first : second, reason: `emulator scores ${a.toFixed(3)} vs ${b.toFixed(3)}` };
  },
};

/**
 * {"position": k}: chain images first (best first, or worst first: the count answered does not
 * depend on the order), the candidate last. Position bias, generalising the pairwise one: the
 * image shown first gets the full bonus, the candidate (shown last) none, linearly in between, so
 * with a bias the answer depends on the order the chain is shown in.
 */
const listwiseHandler: PromptHandler = {
  kind: 'listwise',
  matches: (t) => /"position"\s*:/.test(t),
  answer: ({ text, images, positionBias }) => {
    const w = weightsFor(text);
    const last = images.length - 1;
    const f = heroScore(images[last]!, w);
    const position = images
      .slice(0, -1)
      .filter((im, i) => heroScore(im, w) + (positionBias * (last - i)) / last < f).length;
    return { position, reason: 'emulator ranking' };
  },
};

const PHRASES: Record<ScoredFeature, [string, string]> = {
  sharpness: ['Prefer the sharper image.', 'Prefer the blurrier image.'],
  brightness: ['Prefer the brighter image.', 'Prefer the darker image.'],
  colourfulness: ['Prefer the more colourful image.', 'Prefer the less colourful image.'],
  centredness: ['Prefer the image with a centred subject.', 'Prefer the image with an off-centre subject.'],
};

/**
 * {"guideline", "reversed"}: a sentence of the vocabulary on the feature that decided the pair (the
 * largest weighted difference), favouring the image the emulator prefers, and its reversal. On
 * request: \`weak-guideline\` gives a reversal that flips nothing; \`greedy-guideline\` a guideline
 * against the emulator's main preference, said three times, that overturns other pairs too.
 */
const proposalHandler: PromptHandler = {
  kind: 'hero-propose',
  matches: (t) => /"guideline"\s*:/.test(t),
  answer: ({ text, images, positionBias, fault }) => {
    const [a, b] = [images[0]!, images[1]!];
    if (fault === 'greedy-guideline')
      return {
        guideline: `${PHRASES.sharpness[1]} `.repeat(3).trim(),
        reversed: `${PHRASES.sharpness[0]} `.repeat(3).trim(),
      };
    const w = weightsFor(text);
    const preferA = heroScore(a, w) + positionBias >= heroScore(b, w);
    const features = Object.keys(PHRASES) as ScoredFeature[];
    const f = features.reduce((x, y) =>
      Math.abs(a[y] - b[y]) * Math.max(Math.abs(BASE_WEIGHTS[y]), 0.2) >
      Math.abs(a[x] - b[x]) * Math.max(Math.abs(BASE_WEIGHTS[x]), 0.2)
        ? y
        : x,
    );
    const forA = a[f] > b[f] === preferA;
    const [more, less] = PHRASES[f];
    return {
      guideline: forA ? more : less,
      reversed: fault === 'weak-guideline' ? 'Prefer whichever image you like.' : forA ? less : more,
    };
  },
};

export const HANDLERS: PromptHandler[] = [
  segmentHandler,
  pairwiseHandler,
  listwiseHandler,
  groupedHandler,
  checklistHandler,
  proposalHandler,
];
