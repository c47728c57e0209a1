import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { workersFromDist } from './test/support/dist-workers.js';
import SuiteFiguresReporter from './test/support/suite-figures-reporter.js';

/**
 * The files that take minutes start first, in this order: on a fresh clone vitest knows no
 * durations and starts the largest files first, which left the demo (the longest file by far) to
 * start last and run alone at the end. The rest keep vitest's own order.
 */
const LONG_FIRST = [
  'test/cli/demo.test.ts',
  'test/cli/examples-compass.test.ts',
  'test/cli/examples-hero.test.ts',
  'test/web/viewer.test.ts',
  'test/compass/quality/evaluate.test.ts',
  'test/hero/rubric-learn.test.ts',
  'test/cli/compass-evaluate.test.ts',
];

class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((x) => f.moduleId.endsWith(x));
      return i < 0 ? LONG_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map((x) => x.f);
  }
}

// The full mini sets (`hero mini`, `compass mini`, the demo's material) are built once per run in
// this run's own folder (never one named from outside: a folder kept from another run could hold
// sets an older generator made) and copied wherever a command a test spawns asks for them (the CLI
// passes KFBENCH_MATERIAL_CACHE down, src/cli/env.ts); test/support/material-cache.ts removes it.
// The test-side shared sets are keyed on their generator's source (test/support/generator-hash.ts).
// A process this run started (which may load this file again) inherits the run's folder and keeps it.
if (!basename(process.env.KFBENCH_MATERIAL_CACHE ?? '').startsWith('kfbench-test-material-'))
  process.env.KFBENCH_MATERIAL_CACHE = join(tmpdir(), `kfbench-test-material-${randomUUID()}`);

export default defineConfig({
  plugins: [workersFromDist()],
  test: {
    include: ['test/**/*.test.ts'],
    env: { KFBENCH_MATERIAL_CACHE: process.env.KFBENCH_MATERIAL_CACHE },
    globalSetup: ['test/support/dist-check.ts', 'test/support/material-cache.ts'],
    // No limit on a test's total time (0 = none): a loaded machine can take any time. A stalled
    // run is caught by scripts/hang-guard.mjs, which `npm test` runs Vitest under: it watches for
    // lack of progress (no output and no CPU in the whole process tree), never total time.
    testTimeout: 0,
    hookTimeout: 0,
    pool: 'forks',
    // one more worker than cores: many tests wait on ffmpeg, the emulator or the browser, and a
    // third worker fills that wait (measured: see README, "Development")
    maxWorkers: 3,
    // the README's count of files and tests is checked against a whole-suite run (bench/readme-figures.ts)
    reporters: ['default', new SuiteFiguresReporter()],
    sequence: { sequencer: LongFirstSequencer },
  },
});
