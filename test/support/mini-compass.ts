/**
 * Four cases of the mini Compass set (both structures; 3, 6, 9 and 12 keyframes) with every fault
 * model, built once per machine and shared by test files. Read-only.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildMiniCompass,
  MINI_CASES,
  type MiniCompassPaths,
} from '../../src/synthetic/mini-compass/build.js';
import { generatorHash } from './generator-hash.js';
import { sharedBuild } from './shared-build.js';

export const TEST_CASES = MINI_CASES.filter((c) => ['ot-03', 'ot-12', 'ms-06', 'ms-09'].includes(c.case_id));

export function sharedMiniCompass(): Promise<MiniCompassPaths> {
  return sharedBuild(
    `kfbench-test-mini-compass-${generatorHash('src/synthetic/mini-compass/build.ts')}`,
    (out) => buildMiniCompass(out, { cases: TEST_CASES }),
  );
}

/** One case of a mini set as its own cases.jsonl in `dir` (keyframe paths made absolute); its path. */
export function oneCaseFile(p: MiniCompassPaths, caseId: string, dir: string): string {
  const line = readFileSync(p.cases, 'utf8')
    .split('\n')
    .find((l) => l.includes(`"case_id":"${caseId}"`));
  if (!line) throw new Error(`no case ${caseId} in ${p.cases}`);
  const c = JSON.parse(line);
  c.keyframes = c.keyframes.map((k: { image: string }) => ({ ...k, image: join(p.root, k.image) }));
  const file = join(dir, 'cases.jsonl');
  writeFileSync(file, `${JSON.stringify(c)}\n`);
  return file;
}
