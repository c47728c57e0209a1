/**
 * Scan workers running from the TypeScript sources (tsx, as under Vitest) compile through an
 * esbuild service, a child process of each worker's module-hooks thread: a closed pool leaves none
 * of them behind, running or defunct (before, each worker left a defunct esbuild that nothing
 * reaped for as long as the process lived).
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LoadedCase, loadCases, videoPath } from '../../../src/compass/cases.js';
import { DEFAULT_SCAN_OPTIONS } from '../../../src/compass/response/options.js';
import { ScanPool } from '../../../src/compass/response/scan-pool.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import type { MiniCompassPaths } from '../../../src/synthetic/mini-compass/build.js';
import { sharedMiniCompass } from '../../support/mini-compass.js';

/** This process's esbuild children, defunct ones included. */
function esbuildChildren(): { pid: number; state: string }[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,stat=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when it lists nothing
  }
  return out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([, , name]) => name === 'esbuild')
    .map(([pid, state]) => ({ pid: Number(pid), state: state! }));
}

let mini: MiniCompassPaths;
let cases: LoadedCase[] = [];
beforeAll(async () => {
  mini = await sharedMiniCompass();
  cases = (await loadCases(mini.cases)).slice(0, 2);
});

describe('scan workers from TypeScript sources', () => {
  it('leave no esbuild process behind once the pool is closed', async () => {
    // tsx's compile cache would let a warm machine spawn no esbuild at all: compile for real
    process.env.TSX_DISABLE_CACHE = '1';
    const before = new Set(esbuildChildren().map((c) => c.pid));
    const embedder = createBuiltinEmbedder();
    const pool = ScanPool.open(embedder, 2);
    expect(pool).toBeDefined();
    const scan = pool!.scanFn();
    await Promise.all(
      cases.map((c) =>
        scan(
          { video: videoPath(mini.videos, 'faithful', c.case_id, 'minimal'), keyframes: c.keyframes },
          embedder,
          DEFAULT_SCAN_OPTIONS,
          {},
        ),
      ),
    );
    const during = esbuildChildren().filter((c) => !before.has(c.pid));
    expect(during.length).toBeGreaterThanOrEqual(1); // the workers did compile through esbuild
    await pool!.close();
    const left = esbuildChildren().filter((c) => !before.has(c.pid));
    expect(left).toEqual([]);
    delete process.env.TSX_DISABLE_CACHE;
  });
});
