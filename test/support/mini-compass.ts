/**
 * Four cases of the mini Compass set (both structures; 3, 6, 9 and 12 keyframes) with every fault
 * model, built once per machine and shared by test files. Read-only.
 */
import {
  buildMiniCompass,
  MINI_CASES,
  MINI_COMPASS_VERSION,
  type MiniCompassPaths,
} from '../../src/dev/mini-compass/build.js';
import { sharedBuild } from './shared-build.js';

export const TEST_CASES = MINI_CASES.filter((c) => ['ot-03', 'ot-12', 'ms-06', 'ms-09'].includes(c.case_id));

export function sharedMiniCompass(): Promise<MiniCompassPaths> {
  return sharedBuild(`kfbench-test-mini-compass-v${MINI_COMPASS_VERSION}`, (out) =>
    buildMiniCompass(out, { cases: TEST_CASES }),
  );
}
