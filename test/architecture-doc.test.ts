/** docs/architecture.md is what scripts/architecture-doc.ts writes from lint/layers.cjs and the imports of src/. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectureDoc } from '../scripts/architecture-doc.js';
import { ROOT } from './support/paths.js';

describe('docs/architecture.md', () => {
  it('is what scripts/architecture-doc.ts writes (run it after changing the layers or the imports between folders)', async () => {
    expect(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')).toBe(await architectureDoc(ROOT));
  });
});
