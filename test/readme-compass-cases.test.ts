/**
 * The Compass walkthrough starts with data it says how to get (issue 57 item 1): step 1 names where
 * the published cases come from and the layout to put them in, and, until then, a dry walk on the
 * mini set — whose command, layout and fault "models" are checked here against the mini set as it
 * is built, so that the substitution the README prints runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MiniCompassPaths } from '../src/synthetic/mini-compass/build.js';
import { MODELS } from '../src/synthetic/mini-compass/plans.js';
import { runCli } from './support/cli.js';
import { sharedMiniCompass } from './support/mini-compass.js';
import { ROOT, tempDir } from './support/paths.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const compass = readme.slice(readme.indexOf('## Score my video generator on Compass'));
const step1 = compass.slice(0, compass.indexOf('**2. Videos.**'));

let p: MiniCompassPaths;
beforeAll(async () => {
  p = await sharedMiniCompass();
});

describe("the Compass walkthrough's first step", () => {
  it('says where the published cases come from and where to put them', () => {
    expect(step1).toMatch(/\*\*1\. Get the cases\.\*\*/);
    expect(step1).toMatch(/386 cases/);
    expect(step1).toMatch(/arXiv:2607\.14202/);
    expect(step1).toContain('`compass-bench/cases.jsonl`');
    expect(step1).toContain('`compass-bench/keyframes/<case_id>/<kf_id>.png`');
  });

  it('offers the mini set as a dry walk in the same layout, with models it has', async () => {
    expect(step1).toContain('`npx kfbench compass mini --out compass-bench`');
    const sub = step1.match(/`--videos compass-bench\/videos --model ([\w -]+)`/);
    expect(sub, 'the substitution for my-videos').not.toBeNull();
    const models = sub![1]!.trim().split(/\s+/);
    expect(models).toHaveLength(2);
    for (const m of models) expect(MODELS).toContain(m);
    // the layout the README gives is the mini set's
    const first = JSON.parse(readFileSync(p.cases, 'utf8').split('\n')[0]!);
    expect(first.keyframes[0].image).toBe(`keyframes/${first.case_id}/${first.keyframes[0].kf_id}.png`);
    // and the substituted score runs on it as printed (the mini set standing at compass-bench)
    const r = await runCli([
      ...['compass', 'score', '--cases', p.cases, '--videos', p.videos, '--model', ...models],
      ...['--out', join(tempDir('kfbench-dry-walk-'), 'out'), '--no-scan-cache', '--json'],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).summary.models).sort()).toEqual([...models].sort());
  });
});
