/** The judge layer's shared types: what a backend is asked, what it answers, what a verdict is. */

/** An image as sent to a judge: JPEG bytes after any resize, and their sha256. */
export interface JudgeImage {
  bytes: Buffer;
  sha256: string;
  mime: 'image/jpeg';
}

/** An audio track as sent to a judge that accepts audio input (OpenAI-compatible `input_audio`). */
export interface JudgeAudio {
  data: Buffer;
  sha256: string;
  format: 'wav' | 'mp3';
}

export interface Sampling {
  temperature: number;
  max_tokens: number;
  /** A sampling seed, for backends that take one (OpenAI-compatible `seed`); absent by default. */
  seed?: number;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** What a backend tells of one call's time on the wire (see `JudgeBackend.complete`). */
export interface CallTracker {
  started(): void;
  /** `ok`: a reply came back; false: the call failed for good (after its retries) or was cancelled. */
  finished(ok: boolean): void;
}

export interface BackendRequest {
  /** Rendered prompt text. */
  prompt: string;
  /** Images in placement order. */
  images: JudgeImage[];
  /** The label shown before each image (e.g. A, B or 1…7), in placement order. */
  labels: string[];
  /** An audio track, for judges declared to take audio. */
  audio?: JudgeAudio | undefined;
  /** Protocol name, e.g. `pairwise` or `listwise` (the local reader answers by it). */
  protocol: string;
  sampling: Sampling;
  /** 0 for the first ask, 1 for the re-ask after an unparsable reply. */
  attempt: number;
  /**
   * The longest reply text the judge keeps (max_reply_bytes): a backend reading replies over a
   * wire stops reading a body that cannot hold a reply this long (see reply-limit.ts).
   */
  maxReplyBytes?: number | undefined;
}

export interface BackendReply {
  text: string;
  usage: Usage;
  latency_ms: number;
  /** Failed HTTP attempts that were retried before this reply. */
  retries: number;
  /**
   * The reply was too long to be read whole (see `BackendRequest.maxReplyBytes`): why. `text` is
   * then only its beginning, never parsed.
   */
  tooLong?: string;
  /**
   * `performance.now()` at which the call's time budget ends (its request timeout): the reply's
   * parse is part of it. None: no budget.
   */
  deadline?: number;
}

/** A judge backend turns one request into reply text. Parsing, caching and re-asking are shared. */
export interface JudgeBackend {
  readonly name: string;
  readonly model: string;
  /** Everything else that determines answers (e.g. the local reader's weights hash); enters cache keys. */
  readonly identity: Readonly<Record<string, unknown>>;
  /**
   * `signal` cancels the request, in flight included (Ctrl-C); `gate` only stops it from starting
   * (a pool's first failure): a call already on the wire finishes and its answer is kept.
   * `track` is told when the call leaves the backend's own queue (its concurrency slot taken) and
   * when it gives that slot back: between the two it is "in flight" in the progress shown.
   */
  complete(
    req: BackendRequest,
    signal?: AbortSignal,
    gate?: AbortSignal,
    track?: CallTracker,
  ): Promise<BackendReply>;
  close(): Promise<void>;
}

/** The outcome of one question. */
export interface Verdict<T> {
  answer?: T;
  /** Why no answer: the reply did not parse twice, or was a refusal. */
  unresolved?: string;
  /** Raw reply text(s): the first ask and, if any, the re-ask. */
  raw: string[];
  usage: Usage;
  latency_ms: number;
  /** Served from the cache (no network). */
  cached: boolean;
  /** Answers obtained over the network for this question (re-asks included). */
  calls: number;
  /** The question's cache key (what `Judge.recall` takes to read this answer again without the question). */
  key: string;
}

export interface JudgeStats {
  calls: number;
  cached: number;
  reasks: number;
  retries: number;
  unresolved: number;
  prompt_tokens: number;
  completion_tokens: number;
  latency_ms: number;
}

export function emptyStats(): JudgeStats {
  return {
    calls: 0,
    cached: 0,
    reasks: 0,
    retries: 0,
    unresolved: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    latency_ms: 0,
  };
}
