/**
 * Typed errors with stable codes. Library code throws these; only `cli/bin.ts` prints them
 * and maps them to exit codes.
 */
export type ErrorCode = 'USAGE' | 'BAD_INPUT' | 'BACKEND' | 'PARTIAL' | 'CANCELLED' | 'INTERNAL';

export const EXIT_CODES: Record<ErrorCode, number> = {
  USAGE: 2,
  BAD_INPUT: 3,
  BACKEND: 4,
  PARTIAL: 5,
  /** Interrupted (Ctrl-C): 128 + SIGINT, as shells report it. */
  CANCELLED: 130,
  INTERNAL: 1,
};

export class KfbenchError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = 'KfbenchError';
  }
  get exitCode(): number {
    return EXIT_CODES[this.code];
  }
}

/** The command line was wrong: a missing argument, a malformed flag value. Exit 2. */
export class UsageError extends KfbenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('USAGE', message, options);
    this.name = 'UsageError';
  }
}

/**
 * An input file is missing, unreadable or malformed. `file` (and `line` where it applies) are
 * part of the message so one line tells the user where to look. Exit 3.
 */
export class BadInputError extends KfbenchError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  constructor(message: string, where?: { file?: string; line?: number; cause?: unknown }) {
    const prefix = where?.file ? `${where.file}${where.line !== undefined ? `:${where.line}` : ''}: ` : '';
    super('BAD_INPUT', `${prefix}${message}`, { cause: where?.cause });
    this.file = where?.file;
    this.line = where?.line;
    this.name = 'BadInputError';
  }
}

/** A backend (ffmpeg, a judge server, a model runtime) failed in a way retries will not fix. Exit 4. */
export class BackendError extends KfbenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BACKEND', message, options);
    this.name = 'BackendError';
  }
}

/** Some items failed; the rest were written. `failed` names them. Exit 5. */
export class PartialError extends KfbenchError {
  readonly failed: string[];
  constructor(message: string, failed: string[]) {
    super('PARTIAL', message);
    this.failed = failed;
    this.name = 'PartialError';
  }
}

/** Work stopped because it was cancelled (Ctrl-C, or a sibling task failed first). Exit 130. */
export class CancelledError extends KfbenchError {
  constructor(message = 'cancelled', options?: { cause?: unknown }) {
    super('CANCELLED', message, options);
    this.name = 'CancelledError';
  }
}

export function isKfbenchError(e: unknown): e is KfbenchError {
  return e instanceof KfbenchError;
}
