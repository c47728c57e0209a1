import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceMap, summaryOf } from '../scripts/source-map.js';
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
