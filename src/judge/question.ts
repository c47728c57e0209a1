/**
 * What is asked of a judge: a question (prompt, images and their labels, audio, protocol, answer
 * schema), the judge's options, the call budget and the error that says it is spent.
 */
import type { z } from 'zod';
import { KfbenchError } from '../errors.js';
import type { OnProgress } from '../progress.js';
import type { JudgeCache } from './cache.js';
import type { JudgeAudio, JudgeImage, Sampling } from './types.js';

export interface Question<S extends z.ZodType> {
  prompt: string;
  images: JudgeImage[];
  /** The label shown before each image, in placement order. */
  labels: string[];
  /** An audio track (only for judges that accept audio input). */
  audio?: JudgeAudio | undefined;
  protocol: { name: string; version: string };
  schema: S;
  /** Ask with this sampling seed (enters the cache key; backends without seeds ignore it). */
  seed?: number;
}

export interface JudgeOptions {
  cache?: JudgeCache | undefined;
  sampling?: Partial<Sampling>;
  signal?: AbortSignal | undefined;
  /**
   * Longest reply kept, in UTF-8 bytes (default DEFAULT_MAX_REPLY_BYTES): a longer one is not
   * parsed, is asked once more like an unparsable one and, if again too long, recorded as
   * unresolved with that reason; only its first KiB is kept as its raw text.
   */
  maxReplyBytes?: number | undefined;
  /**
   * The progress stream: every backend call is a `call-started` and then a `call-finished` event
   * of the judge's calls (JUDGE_CALLS), re-asks included — what a long judge phase shows while
   * its items take minutes. Cache hits make no call and no event.
   */
  onProgress?: OnProgress | undefined;
}

export interface CallLimits {
  /** Start no new question once this many backend calls have started (see `Judge.ask`). */
  maxCalls?: number | undefined;
}

/** The call budget (--max-calls) is spent: the question was not asked. Exit 5 when it ends a run. */
export class CallBudgetSpent extends KfbenchError {
  constructor(readonly maxCalls: number) {
    super('PARTIAL', `the call budget of ${maxCalls} is spent (run again to resume)`);
    this.name = 'CallBudgetSpent';
  }
}
