/**
 * Writes docs/cli.md from the commander program and its examples (src/cli/reference.ts).
 *   npx tsx scripts/cli-docs.ts
 * test/cli/docs.test.ts checks that the committed file is what this writes.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildProgram } from '../src/cli/program.js';
import { cliReference } from '../src/cli/reference.js';

const file = join(resolve(import.meta.dirname, '..'), 'docs', 'cli.md');
writeFileSync(file, cliReference(await buildProgram()));
console.log(`wrote ${file}`);
