/**
 * Typed errors with stable codes. Library code throws these; only `cli/bin.ts` prints them
 * and maps them to exit codes.
 */
export type ErrorCode =
  | 'USAGE'
  | 'BAD_INPUT'
  | 'BACKEND'
  | 'ENVIRONMENT'
  | 'PARTIAL'
  | 'CANCELLED'
  | 'INTERNAL';

export const EXIT_CODES: Record<ErrorCode, number> = {
  USAGE: 2,
  BAD_INPUT: 3,
  BACKEND: 4,
  /** The machine refused a file operation: like a backend failure, the input is fine. */
  ENVIRONMENT: 4,
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

/**
 * The machine refused an operation on a file: the disk is full (ENOSPC, EDQUOT, EFBIG), the file
 * or folder is not writable (EACCES, EPERM, EROFS), a folder cannot be made. The message names the
 * path. Exit 4, like a backend failure (its own code, ENVIRONMENT): the input is fine, the
 * environment is not.
 */
export class EnvironmentError extends KfbenchError {
  readonly path: string | undefined;
  constructor(message: string, where?: { path?: string; cause?: unknown }) {
    super('ENVIRONMENT', where?.path ? `${where.path}: ${message}` : message, { cause: where?.cause });
    this.path = where?.path;
    this.name = 'EnvironmentError';
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

/**
 * A bug in kfbench: a condition its own code should have made impossible (a precondition a caller
 * broke, an invariant that did not hold). Exit 1. Input a user can get wrong is never this.
 */
export class InternalError extends KfbenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INTERNAL', message, options);
    this.name = 'InternalError';
  }
}

export function isKfbenchError(e: unknown): e is KfbenchError {
  return e instanceof KfbenchError;
}

/** The message of anything thrown: an Error's message, else its text. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The errno code (`ENOENT`, `ENOSPC` …) of a thrown Node error; undefined for anything else. */
export function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string'
    ? e.code
    : undefined;
}

/**
 * An error as plain data, to cross a thread boundary (`postMessage` clones an Error subclass as a
 * bare Error, losing its class, code, file and line): `reviveError` makes the same class again.
 */
export interface ErrorData {
  name: string;
  message: string;
  stack?: string | undefined;
  code?: ErrorCode | undefined;
  file?: string | undefined;
  line?: number | undefined;
  failed?: string[] | undefined;
}

export function errorData(e: unknown): ErrorData {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  return {
    name: e.name,
    message: e.message,
    stack: e.stack,
    ...(e instanceof KfbenchError ? { code: e.code } : {}),
    ...(e instanceof BadInputError ? { file: e.file, line: e.line } : {}),
    ...(e instanceof PartialError ? { failed: [...e.failed] } : {}),
  };
}

const BUILTIN_ERRORS: Record<string, new (message: string) => Error> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
};

function kfbenchError(d: ErrorData & { code: ErrorCode }): KfbenchError {
  switch (d.code) {
    case 'USAGE':
      return new UsageError(d.message);
    case 'BAD_INPUT': {
      const e = new BadInputError(d.message, {
        ...(d.file !== undefined ? { file: d.file } : {}),
        ...(d.line !== undefined ? { line: d.line } : {}),
      });
      e.message = d.message; // as it was: the constructor put the file in front once more
      return e;
    }
    case 'BACKEND':
      return new BackendError(d.message);
    case 'ENVIRONMENT':
      return new EnvironmentError(d.message);
    case 'PARTIAL':
      return new PartialError(d.message, d.failed ?? []);
    case 'CANCELLED':
      return new CancelledError(d.message);
    case 'INTERNAL':
      return new InternalError(d.message);
  }
}

/**
 * The error `errorData` described: a kfbench error as the class of its code (with its message,
 * file, line and name), any other as a built-in Error class of that name (else a plain Error).
 */
export function reviveError(d: ErrorData): Error {
  const e = d.code ? kfbenchError({ ...d, code: d.code }) : new (BUILTIN_ERRORS[d.name] ?? Error)(d.message);
  if (e.name !== d.name) e.name = d.name;
  if (d.stack !== undefined) e.stack = d.stack;
  return e;
}
