import { defineConfig } from 'vitest/config';

// No per-test limit that a loaded machine could exceed: a test that needs minutes builds its
// material once (test/support/shared-build.ts) and shares it. The 30-minute ceiling only turns a
// real hang into a failure, well inside CI's budget.
const HANG_MS = 30 * 60_000;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    pool: 'forks',
    // one more worker than cores: many tests wait on ffmpeg, the emulator or the browser, and a
    // third worker fills that wait (measured: see README, "Development")
    maxWorkers: 3,
    reporters: ['default'],
  },
});
