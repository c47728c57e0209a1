/**
 * What the Compass file schemas share: counts and seconds, a video's status, a case's structure,
 * conditioning and prompt mode as they appear in response.jsonl and evaluation.jsonl.
 */
import { z } from 'zod';
import { PROMPT_MODES, STRUCTURES } from '../cases/cases.js';

export const Count = z.number().int().nonnegative();
export const Seconds = z.number().nonnegative();

export const VideoStatus = z.enum(['scored', 'missing', 'failed']);
export type VideoStatus = z.infer<typeof VideoStatus>;
export const Structure = z.enum(STRUCTURES);
export const Conditioning = z.enum(['image_list', 'storyboard_grid']);
export const PromptModeSchema = z.enum(PROMPT_MODES);
