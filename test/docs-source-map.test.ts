import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONG_FILE_LINES, sourceMap, summaryOf } from '../scripts/source-map.js';
import { EXIT_CODES } from '../src/errors.js';
import { ROOT as repoRoot } from './support/paths.js';

describe('docs/source-map.md', () => {
  it('is what scripts/source-map.ts writes from the tree (run it after adding, removing or resizing a file)', () => {
    expect(readFileSync(join(repoRoot, 'docs', 'source-map.md'), 'utf8')).toBe(sourceMap(repoRoot));
  });

  it('takes the first sentence of the leading doc comment', () => {
    expect(summaryOf('/**\n * One thing. And more.\n */\nexport {}')).toBe('One thing.');
    expect(summaryOf('// a line comment, e.g. here. Not this\n')).toBe('a line comment, e.g. here.');
    expect(summaryOf('export const x = 1;\n')).toBe('(no doc comment)');
  });
});

describe('docs/development.md', () => {
  it('names every file over the line limit as a known exception, and no file within it', () => {
    const map = readFileSync(join(repoRoot, 'docs', 'source-map.md'), 'utf8');
    const long = [...map.slice(map.indexOf('## Files over')).matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!);
    const dev = readFileSync(join(repoRoot, 'docs', 'development.md'), 'utf8');
    const start = dev.indexOf(`Files over ${LONG_FILE_LINES} lines`);
    expect(start).toBeGreaterThan(-1);
    const named = [...dev.slice(start, dev.indexOf('\n\n', start)).matchAll(/`(src\/[^`]+\.ts)`/g)].map(
      (m) => m[1]!,
    );
    expect(new Set(named)).toEqual(new Set(long));
  });
});

describe('docs/cli.md', () => {
  it('states every exit code the CLI sets', () => {
    const cli = readFileSync(join(repoRoot, 'docs', 'cli.md'), 'utf8');
    const para = cli.slice(cli.indexOf('Exit codes:'), cli.indexOf('\n\n', cli.indexOf('Exit codes:')));
    for (const code of [0, ...Object.values(EXIT_CODES)]) expect(para).toContain(`\`${code}\``);
  });
});
