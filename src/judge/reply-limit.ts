/**
 * How much of a judge's reply is read and kept (issues 31 and 46). A verdict is a few hundred
 * bytes; a reply of megabytes is a model that ran away or a server that misbehaves, and is
 * recorded as unresolved with that reason rather than held in memory.
 */

/** 1 MiB: the longest reply text kept (`max_reply_bytes`); a longer one is unresolved. */
export const DEFAULT_MAX_REPLY_BYTES = 1 << 20;

/** The part of an over-long reply that is kept (so caches and result rows stay small). */
export const KEPT_OF_LONG_REPLY = 1024;

/**
 * The most of an HTTP reply body read for a reply of at most `maxReplyBytes` of text: 6 bytes of
 * body for each byte of text (the most JSON escaping makes of one: a control character is sent as
 * \u00XX) and 64 KiB for the rest of the chat completion. A body over it cannot hold a reply within
 * the limit: reading stops there, whatever the body's length (chunked, endless).
 */
export function replyBodyLimit(maxReplyBytes: number): number {
  return 6 * maxReplyBytes + (64 << 10);
}
