/** What a prompt handler of the emulator is: it recognises its prompt and answers it. */
import type { AudioFeatures } from './audio.js';
import type { ImageFeatures } from './features.js';

interface PromptContext {
  text: string;
  images: ImageFeatures[];
  /** The attached audio track's loudness, when a WAV track was attached. */
  audio?: AudioFeatures;
  positionBias: number;
  /** Pairwise: a bonus for the image labelled "A", wherever it is shown. */
  labelBias?: number;
  /** The `bad-items` fault: answer wrongly item by item, where the prompt has items. */
  malformed?: boolean;
  /** A semantic fault injected into this request (handlers that know it act on it). */
  fault?: string | null;
}

export interface PromptHandler {
  kind: string;
  matches(text: string): boolean;
  answer(ctx: PromptContext): unknown;
}
