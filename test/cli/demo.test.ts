import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';

describe('kfbench demo', () => {
  it('builds its video and runs the media pipeline, twice (the second run reuses the video)', async () => {
    const out = tempDir();
    const r = await runCli(['demo', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/shots\s+4:/);
    expect(r.stdout).toMatch(/cut@48, cut@96, gradual@/);
    expect(existsSync(join(out, 'grid.jpg'))).toBe(true);
    const again = await runCli(['demo', '--out', out]);
    expect(again.code).toBe(0);
    expect(again.stdout.replace(/\s+/g, ' ')).toBe(r.stdout.replace(/\s+/g, ' '));
  });
});
