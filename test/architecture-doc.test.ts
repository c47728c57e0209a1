/** docs/architecture.md is what scripts/architecture-doc.ts writes from lint/layers.cjs and the imports of src/. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectureDoc, WALKS } from '../scripts/architecture-doc.js';
import { ROOT } from './support/paths.js';

describe('docs/architecture.md', () => {
  it('is what scripts/architecture-doc.ts writes (run it after changing the layers or the imports between folders)', async () => {
    expect(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')).toBe(await architectureDoc(ROOT));
  });

  it('names only files that exist, and each walk names a parse function, options type and run that its files export', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const named = [...doc.matchAll(/`(src\/[^`*]+\.ts)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(10);
    for (const f of named) expect(existsSync(join(ROOT, f)), f).toBe(true);
    for (const w of WALKS) {
      const cli = readFileSync(join(ROOT, w.cli), 'utf8');
      const run = readFileSync(join(ROOT, w.runFile), 'utf8');
      expect(cli).toMatch(new RegExp(`export function ${w.parse}\\(`));
      expect(cli).toContain(w.options);
      expect(run).toMatch(new RegExp(`export (type|interface) ${w.options}\\b`));
      expect(run).toMatch(new RegExp(`export (async )?function ${w.run}\\(`));
      expect(doc).toContain(`### \`${w.command}\``);
    }
  });
});
