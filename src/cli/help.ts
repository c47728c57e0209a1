/**
 * One runnable example per leaf command, with what it needs first and the files it writes: shown
 * under each command's `--help`, in docs/cli.md (generated from the program), and run by
 * test/cli/examples-*.test.ts, which check each example's output against `prints`.
 *
 * Every example runs from the repository root after the Quickstart (`npm ci`), reading the
 * fixtures under test/ and writing under `kfbench-examples/`; the ones that use the mini sets or
 * an earlier example's output say so in `needs`. `EXAMPLES` is in an order that runs them all.
 */

import type { Example } from './example-paths.js';
import { BLOCK_EXAMPLES } from './examples-blocks.js';
import { COMPASS_EXAMPLES } from './examples-compass.js';
import { HERO_EXAMPLES } from './examples-hero.js';
import { FOLDER_OUTPUTS, folderFilesLines } from './folder-files.js';

/** Every example, in an order that runs them all (each one's `needs` come earlier). */
export const EXAMPLES: readonly Example[] = [...BLOCK_EXAMPLES, ...HERO_EXAMPLES, ...COMPASS_EXAMPLES];

export function exampleOf(command: string): Example | undefined {
  return EXAMPLES.find((e) => e.command === command);
}

/** The text under a command's --help. */
export function helpText(e: Example): string {
  return [
    '',
    'Example (from the repository root):',
    `  ${e.line}`,
    ...(e.needs ? [`Needs first: ${e.needs}`] : []),
    ...(e.before ?? []).map((l) => `  ${l}`),
    `Writes: ${e.writes ?? 'nothing (prints only)'}`,
    ...(FOLDER_OUTPUTS[e.command] ? folderFilesLines(FOLDER_OUTPUTS[e.command]!) : []),
  ].join('\n');
}
