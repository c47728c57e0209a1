/**
 * The suite's own count check (test/support/suite-figures-reporter.ts), run for real: Vitest on a
 * small project of two test files (three tests, one skipped) with the reporter pointed at that
 * project and a figures file of its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './support/paths.js';

function project(suite: { files: number; tests: number }): { dir: string; record: string } {
  const dir = tempDir('kfbench-suite-figures-');
  mkdirSync(join(dir, 'test', 'sub'), { recursive: true });
  writeFileSync(
    join(dir, 'test', 'a.test.ts'),
    "import { it } from 'vitest';\nit('a', () => {});\nit.skip('b', () => {});\n",
  );
  writeFileSync(join(dir, 'test', 'sub', 'c.test.ts'), "import { it } from 'vitest';\nit('c', () => {});\n");
  const record = join(dir, 'figures.json');
  writeFileSync(record, JSON.stringify({ suite: { ...suite, workers: 1 } }));
  const reporter = join(ROOT, 'test', 'support', 'suite-figures-reporter.ts');
  writeFileSync(
    join(dir, 'vitest.config.mts'),
    `import R from ${JSON.stringify(reporter)};\nexport default { test: { include: ['test/**/*.test.ts'], reporters: ['default', new R({ root: ${JSON.stringify(dir)}, record: ${JSON.stringify(record)} })] } };\n`,
  );
  return { dir, record };
}

function vitest(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const { KFBENCH_RECORD_SUITE: _, ...rest } = process.env;
  return spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...rest, ...env, CI: 'true' },
  });
}

describe('the suite figures reporter', () => {
  it('passes a whole run whose files and tests are the recorded ones', () => {
    const r = vitest(project({ files: 2, tests: 3 }).dir);
    expect(r.status, r.stderr + r.stdout).toBe(0);
  });

  it('fails a whole run with another count, saying both and how to record', () => {
    const r = vitest(project({ files: 2, tests: 4 }).dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/this run has 2 test files and 3 tests, but .* says 2 and 4: record them with/);
  });

  it('leaves a run of chosen files alone', () => {
    const r = vitest(project({ files: 2, tests: 4 }).dir, ['test/a.test.ts']);
    expect(r.status, r.stderr).toBe(0);
  });

  it('records the counts of a whole run when asked', () => {
    const p = project({ files: 9, tests: 9 });
    const r = vitest(p.dir, [], { KFBENCH_RECORD_SUITE: '1' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(p.record, 'utf8')).suite).toEqual({ files: 2, tests: 3, workers: 1 });
  });
});
