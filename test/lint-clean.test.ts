/**
 * A fresh clone lints clean (issue 57 item 8): `npm run lint`'s Biome pass fails on a warning, and
 * the tree as committed has none — no unused import or function, no deprecated key in biome.json.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/paths.js';

describe('biome on the committed tree', () => {
  it('npm run lint treats a warning as an error', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.lint).toMatch(/^biome ci --error-on-warnings \./);
  });

  it('reports no warning and no deprecated configuration', () => {
    const r = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'biome'),
      ['ci', '--error-on-warnings', '--colors=off', '.'],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const out = `${r.stdout}${r.stderr}`;
    expect(out).not.toMatch(/DEPRECATED|deprecated/);
    expect(out).not.toMatch(/Found \d+ warnings?/);
    expect(r.status, out.slice(-3000)).toBe(0);
  });
});
