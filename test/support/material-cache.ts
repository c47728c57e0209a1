/**
 * Vitest global setup: the run's own material cache (vitest.config.ts sets KFBENCH_MATERIAL_CACHE
 * to a new folder for every run) is removed when the run ends.
 */
import { rmSync } from 'node:fs';
import { basename } from 'node:path';

export default function setup(): () => void {
  const dir = process.env.KFBENCH_MATERIAL_CACHE;
  return () => {
    if (dir && basename(dir).startsWith('kfbench-test-material-'))
      rmSync(dir, { recursive: true, force: true });
  };
}
