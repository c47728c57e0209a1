/**
 * Fuzz-style: random truncations and byte flips (seeded, a bounded number) of the mini sets'
 * files, fed to every loader. Each must end as success, bad input (3) or partly done (5) — never
 * an untyped error (the CLI's exit 1) or a crash; the viewer's loader must not throw at all.
 */
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../src/compass/cases/cases.js';
import { BadInputError, isKfbenchError } from '../src/errors.js';
import { datasetPaths } from '../src/hero/dataset/layout.js';
import { loadChains, loadCore, loadRubrics, loadVerifyHashes, readQuery } from '../src/hero/dataset/load.js';
import { checkSelections } from '../src/hero/dataset/selections.js';
import { validateDataset } from '../src/hero/dataset/validate.js';
import { verifyTrack } from '../src/hero/track/verify.js';
import { readReaderFile } from '../src/judge/local.js';
import { readJudgeConfig } from '../src/judge/precedence.js';
import { createRng, type Rng } from '../src/stats/rng.js';
import type { MiniCompassPaths } from '../src/synthetic/mini-compass/build.js';
import type { MiniHeroPaths } from '../src/synthetic/mini-hero.js';
import { loadViewerData } from '../src/web/data.js';
import { runCli } from './support/cli.js';
import { sharedMiniCompass } from './support/mini-compass.js';
import { sharedMiniHero } from './support/mini-hero.js';
import { ROOT, tempDir } from './support/paths.js';

const ROUNDS = 3; // mutations per file
let hero: MiniHeroPaths;
let compass: MiniCompassPaths;
let data: string;
let cases: string;
let selections: string;
let config: string;
let reader: string;

beforeAll(async () => {
  hero = await sharedMiniHero();
  compass = await sharedMiniCompass();
  data = join(tempDir(), 'heroframe');
  cpSync(hero.data, data, { recursive: true });
  const c = tempDir();
  symlinkSync(join(compass.root, 'keyframes'), join(c, 'keyframes'));
  cases = join(c, 'cases.jsonl');
  cpSync(compass.cases, cases);
  const ds = await loadCore(data);
  selections = join(tempDir(), 'selections.jsonl');
  writeFileSync(
    selections,
    [...ds.timelines.keys()]
      .map((m) =>
        JSON.stringify({ movie_id: m, frames: [0, 1, 2].map((f, i) => ({ rank: i + 1, frame_idx: f })) }),
      )
      .join('\n'),
  );
  config = join(tempDir(), 'judge.json');
  writeFileSync(
    config,
    JSON.stringify({ judge: 'openai:m@http://127.0.0.1:9/v1', concurrency: 4, timeout_s: 30 }),
  );
  reader = join(tempDir(), 'reader.json');
  cpSync(join(ROOT, 'test', 'fixtures', 'judge', 'reader.json'), reader);
});

/** Cut the file somewhere, flip a few bits, or both. */
function mutate(bytes: Buffer, rng: Rng): Buffer {
  const kind = rng.int(3);
  if (kind === 0 || bytes.length < 4) return bytes.subarray(0, rng.int(bytes.length));
  const out = Buffer.from(kind === 2 ? bytes.subarray(0, 1 + rng.int(bytes.length - 1)) : bytes);
  for (let k = 1 + rng.int(6); k > 0; k--) {
    const at = rng.int(out.length);
    out[at] = out[at]! ^ (1 << rng.int(8));
  }
  return out;
}

/** 0 on success, else the exit code the CLI would give; an untyped error fails the test with its stack. */
async function outcome(f: () => unknown): Promise<number> {
  try {
    await f();
    return 0;
  } catch (e) {
    if (isKfbenchError(e)) return e.exitCode;
    throw e;
  }
}

async function heroLoaders(): Promise<number[]> {
  return Promise.all([
    outcome(async () => {
      // what `hero validate` does with the report
      if ((await validateDataset(data)).problems.length) throw new BadInputError('problems');
    }),
    outcome(() => loadCore(data)),
    outcome(() => loadChains(data)),
    outcome(() => loadRubrics(data)),
    outcome(() => loadVerifyHashes(data)),
    outcome(() => readQuery(data)),
    outcome(async () => checkSelections(selections, (await loadCore(data)).timelines)),
  ]);
}

describe('fuzz: damaged mini-set files into every loader', () => {
  const p = () => datasetPaths(data);
  it.each([
    ['movies.jsonl', () => p().movies],
    ['clips.jsonl', () => p().clips],
    ['chains.jsonl', () => p().chains],
    ['rubrics.jsonl', () => p().rubrics],
    ['image_sha256.jsonl', () => p().imageSha],
    ['track_index.jsonl.zst', () => p().trackIndex],
    ['verify_dhash.jsonl.zst', () => p().verifyDhash],
    ['corpus_stats.json', () => p().corpusStats],
    ['query.txt', () => p().query],
  ])('%s: every hero loader and the viewer end in 0, 3 or 5', async (name, path) => {
    const file = path();
    const original = readFileSync(file);
    const rng = createRng(`kfbench-fuzz-${name}`);
    try {
      for (let r = 0; r < ROUNDS; r++) {
        writeFileSync(file, mutate(original, rng));
        for (const code of await heroLoaders()) expect([0, 3, 5], `${name} round ${r}`).toContain(code);
        if (name === 'verify_dhash.jsonl.zst')
          expect([0, 3, 5]).toContain(await outcome(() => verifyTrack({ track: hero.track, data })));
        const view = await loadViewerData({ data, track: hero.track, cases });
        expect(view.hero).toBeDefined();
      }
    } finally {
      writeFileSync(file, original);
    }
  });

  it.each([
    ['cases.jsonl', () => cases, () => loadCases(cases)],
    [
      'selections.jsonl',
      () => selections,
      async () => checkSelections(selections, (await loadCore(data)).timelines),
    ],
    ['judge config', () => config, () => readJudgeConfig(config)],
    ['local reader', () => reader, () => readReaderFile(reader)],
  ])('%s: its loader ends in 0, 3 or 5', async (name, path, load) => {
    const file = path();
    const original = readFileSync(file);
    const rng = createRng(`kfbench-fuzz-${name}`);
    try {
      for (let r = 0; r < 2 * ROUNDS; r++) {
        writeFileSync(file, mutate(original, rng));
        expect([0, 3, 5], `${name} round ${r}`).toContain(await outcome(load));
        if (name === 'cases.jsonl') expect((await loadViewerData({ cases })).compass).toBeDefined();
      }
    } finally {
      writeFileSync(file, original);
    }
  });

  it('through the CLI: damaged files give exit 3 with one line naming the file, no stack', async () => {
    const rng = createRng('kfbench-fuzz-cli');
    const d = join(tempDir(), 'heroframe');
    cpSync(data, d, { recursive: true });
    const zst = datasetPaths(d).trackIndex;
    writeFileSync(zst, mutate(readFileSync(zst), rng).subarray(0, 200));
    const v = await runCli(['hero', 'validate', '--data', d]);
    expect(v.code).toBe(3);
    expect(v.stderr).toContain('track_index.jsonl.zst');
    const c = join(tempDir(), 'cases.jsonl');
    writeFileSync(c, readFileSync(cases).subarray(0, 150));
    const cv = await runCli(['compass', 'validate', '--cases', c]);
    expect(cv.code).toBe(3);
    expect(cv.stderr).toContain(c);
    for (const r of [v, cv]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
