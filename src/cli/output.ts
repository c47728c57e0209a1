/** How the CLI prints results: JSON to stdout, or aligned text. */
/** Lines said on stderr once the command has run with results (done or partly done), not on a refusal. */
const afterRun: string[] = [];

export function noteAfterRun(line: string): void {
  afterRun.push(line);
}

/** The lines of `noteAfterRun`, written once. */
export function flushAfterRun(): void {
  for (const l of afterRun.splice(0)) process.stderr.write(`${l}\n`);
}

/** Set once a command printed its JSON: a failure after it adds none (one JSON value on stdout). */
let jsonPrinted = false;

export function printJson(value: unknown): void {
  jsonPrinted = true;
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A notice for the reader on stderr (results stay on stdout): `kfbench: note: …`. */
export function printNotice(line: string | undefined): void {
  if (line) process.stderr.write(`kfbench: note: ${line}\n`);
}

/**
 * With `--json`, a failure before the command printed its JSON is JSON on stdout too (the one line
 * on stderr stays): `{"error": {code, exit_code, message, file?, line?}}`, so that a script reading
 * stdout never gets nothing.
 */
export function printJsonFailure(
  argv: readonly string[],
  e: {
    code: string;
    exitCode: number;
    message: string;
    file?: string | undefined;
    line?: number | undefined;
  },
): void {
  const end = argv.indexOf('--');
  if (jsonPrinted || !(end < 0 ? argv : argv.slice(0, end)).includes('--json')) return;
  const { code, exitCode, message, file, line } = e;
  printJson({
    error: { code, exit_code: exitCode, message, ...(file ? { file } : {}), ...(line ? { line } : {}) },
  });
}

export function printLines(lines: string[]): void {
  process.stdout.write(lines.length ? `${lines.join('\n')}\n` : '');
}

/** Parse a number flag; throws a usage error naming the flag. */
export function parseNumberFlag(name: string, value: string, check?: (n: number) => boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (check && !check(n))) {
    throw new UsageErrorForFlag(name, value);
  }
  return n;
}

import { UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';

class UsageErrorForFlag extends UsageError {
  constructor(name: string, value: string) {
    super(`${name} got "${value}", which is not a valid number here`);
  }
}

/**
 * A flag that takes one of a few words; anything else is a usage error naming the flag, the words
 * and the word nearest to the one given.
 */
export function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  const hit = allowed.find((a) => a === value);
  if (hit === undefined)
    throw new UsageError(
      `${name} must be ${allowed.join(', ')}, got "${value}"${didYouMean(value, allowed)}`,
    );
  return hit;
}

/** A command's result: as JSON with --json, else as the lines `lines` makes of it. */
export function printResult<T>(json: boolean | undefined, r: T, lines: (r: T) => string[]): void {
  if (json) printJson(r);
  else printLines(lines(r));
}
