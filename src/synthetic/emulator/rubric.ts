/**
 * The guideline vocabulary the emulator understands in a prompt (its rubric part), each with its
 * reversal. Every occurrence shifts the weight of one feature; the base preference is a fixed rule
 * (sharpness 0.45, colourfulness 0.35, centred subject 0.20).
 */
import type { ImageFeatures, ScoredFeature } from './features.js';

export const BASE_WEIGHTS: Record<ScoredFeature, number> = {
  sharpness: 0.45,
  colourfulness: 0.35,
  centredness: 0.2,
  brightness: 0,
};

/** [phrase, feature, sign]: "prefer the sharper image" / "prefer the blurrier image", … */
const GUIDELINES: [RegExp, ScoredFeature, 1 | -1][] = [
  [/prefer the sharper image/gi, 'sharpness', 1],
  [/prefer the blurrier image/gi, 'sharpness', -1],
  [/prefer the brighter image/gi, 'brightness', 1],
  [/prefer the darker image/gi, 'brightness', -1],
  [/prefer the more colou?rful image/gi, 'colourfulness', 1],
  [/prefer the less colou?rful image/gi, 'colourfulness', -1],
  [/prefer the image with a centred subject/gi, 'centredness', 1],
  [/prefer the image with an off-centre subject/gi, 'centredness', -1],
];

const GUIDELINE_WEIGHT = 0.6;

export function weightsFor(prompt: string): Record<ScoredFeature, number> {
  const w = { ...BASE_WEIGHTS };
  for (const [re, feature, sign] of GUIDELINES) {
    const hits = prompt.match(re)?.length ?? 0;
    w[feature] += sign * GUIDELINE_WEIGHT * hits;
  }
  return w;
}

export function heroScore(f: ImageFeatures, w: Record<ScoredFeature, number>): number {
  return (
    w.sharpness * f.sharpness +
    w.colourfulness * f.colourfulness +
    w.centredness * f.centredness +
    w.brightness * f.brightness
  );
}
