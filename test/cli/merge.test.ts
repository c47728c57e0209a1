/**
 * Sharded runs (`--shard k/n`) merged with `kfbench merge` give the outputs of an unsharded run,
 * byte for byte (summary.json, leaderboard.json and the row files), on the mini sets against the
 * emulator; a merge refuses shards of other settings, a film missing and a film held twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let hero: MiniHeroPaths;
let compass: MiniCompassPaths;
let emu: Emulator;
let dir = '';

beforeAll(async () => {
  [hero, compass] = await Promise.all([sharedMiniHero(), sharedMiniCompass()]);
  emu = await startEmulator();
  dir = tempDir('kfbench-merge-');
  const sel = await runCli([
    ...['hero', 'select', '--method', 'uniform', '--data', hero.data, '--track', hero.track],
    ...['--out', join(dir, 'uniform.jsonl'), '--k', '2'],
  ]);
  expect(sel.code, sel.stderr).toBe(0);
});
afterAll(async () => emu?.close());

const read = (d: string, f: string) => readFileSync(join(d, f), 'utf8');
const ok = async (args: string[]) => {
  const r = await runCli(args);
  expect(r.code, r.stderr).toBe(0);
  return r;
};

describe('kfbench merge hero', () => {
  const evaluate = (out: string, ...extra: string[]) =>
    ok([
      ...['hero', 'evaluate', '--selections', join(dir, 'uniform.jsonl'), '--data', hero.data],
      ...['--track', hero.track, '--judge', `openai:kfbench-emulator@${emu.url}`],
      ...['--cache', join(out, 'cache.sqlite'), '--out', out, '--bootstrap', '200', '--include-stills'],
      ...extra,
    ]);

  it('two shards merged equal the unsharded run byte for byte; the merge refuses what does not add up', async () => {
    const [full, s1, s2, other] = ['full', 's1', 's2', 'other'].map((n) => join(dir, 'hero', n)) as [
      string,
      string,
      string,
      string,
    ];
    await Promise.all([
      evaluate(full),
      evaluate(s1, '--shard', '1/2'),
      evaluate(s2, '--shard', '2/2'),
      evaluate(other, '--shard', '2/2', '--seed', '7'),
    ]);
    // each shard holds one of the two films
    const films = [s1, s2].map((d) => JSON.parse(read(d, 'settings.json')).items);
    expect(films.flat().sort()).toEqual(TEST_FILMS.map((f) => f.movie_id).sort());
    expect(films.map((f) => f.length)).toEqual([1, 1]);

    const merged = join(dir, 'hero', 'merged');
    const r = await ok(['merge', 'hero', s2, s1, '--out', merged]);
    expect(r.stdout).toMatch(/merged 2 shard\(s\): 2 films/);
    for (const f of ['summary.json', 'per_film.csv', 'insertions.jsonl', 'report.md', 'settings.json'])
      expect(read(merged, f), f).toBe(read(full, f));
    expect(JSON.parse(read(merged, 'summary.json')).methods[0].films).toBe(2);

    const seed = await runCli(['merge', 'hero', s1, other, '--out', join(dir, 'hero', 'bad1')]);
    expect(seed.code).toBe(3);
    expect(seed.stderr).toContain(`${other} differs from ${s1} in settings.seed`);
    const missing = await runCli(['merge', 'hero', s1, '--out', join(dir, 'hero', 'bad2')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/the shards miss 1 of 2 item\(s\): \S+/);
    const twice = await runCli(['merge', 'hero', s1, s2, full, '--out', join(dir, 'hero', 'bad3')]);
    expect(twice.code).toBe(3);
    expect(twice.stderr).toMatch(/2 item\(s\) in more than one shard/);
  });
});

describe('kfbench merge compass', () => {
  const common = (out: string) => [...['--cases', compass.cases, '--videos', compass.videos, '--out', out]];

  it('compass score: three shards merged equal the unsharded run byte for byte', async () => {
    const outs = ['full', 's1', 's2', 's3'].map((n) => join(dir, 'score', n));
    const score = (out: string, ...extra: string[]) =>
      ok(['compass', 'score', ...common(out), '--model', 'faithful', 'cut', '--modes', 'minimal', ...extra]);
    await score(outs[0]!);
    // the shards read the unsharded run's scans (the scan cache is keyed by content): only the merge is under test
    const scans = join(dir, 'score', '.cache', 'kfbench', 'scan-cache.sqlite');
    // one shard with other decoder threads: how fast a scan is made is not a setting that must match
    const threads = (k: number) => (k === 2 ? ['--decode-threads', '1'] : []);
    await Promise.all(
      [1, 2, 3].map((k) => score(outs[k]!, '--shard', `${k}/3`, '--scan-cache', scans, ...threads(k))),
    );
    const merged = join(dir, 'score', 'merged');
    await ok(['merge', 'compass', ...outs.slice(1).reverse(), '--out', merged]);
    for (const f of ['summary.json', 'response.jsonl', 'settings.json'])
      expect(read(merged, f), f).toBe(read(outs[0]!, f));
    // --max-duration decides which videos fail: a shard run with another limit does not merge
    const longer = join(dir, 'score', 's3-longer');
    await score(longer, '--shard', '3/3', '--scan-cache', scans, '--max-duration', '300');
    const refused = await runCli([
      'merge',
      'compass',
      outs[1]!,
      outs[2]!,
      longer,
      '--out',
      join(dir, 'score', 'no'),
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('in settings.scan.maxDuration_s');
  });

  it('compass evaluate: two shards of a case list merged equal the unsharded run byte for byte', async () => {
    const outs = ['full', 's1', 's2'].map((n) => join(dir, 'eval', n));
    await Promise.all(
      outs.map((out, i) =>
        ok([
          ...['compass', 'evaluate', ...common(out), '--model', 'faithful', '--modes', 'minimal'],
          ...['--case-ids', 'ot-03', 'ms-06', '--segmenter', 'pixel'],
          ...['--judge', `openai:kfbench-emulator@${emu.url}`],
          ...(i ? ['--shard', `${i}/2`] : []),
        ]),
      ),
    );
    const merged = join(dir, 'eval', 'merged');
    const r = await ok(['merge', 'compass', outs[1]!, outs[2]!, '--out', merged]);
    expect(r.stdout).toMatch(/merged 2 compass evaluate shard\(s\): 2 cases, 2 videos/);
    for (const f of [
      'leaderboard.json',
      'summary.json',
      'evaluation.jsonl',
      'checklists.jsonl',
      'response.jsonl',
      'settings.json',
    ])
      expect(read(merged, f), f).toBe(read(outs[0]!, f));
    const kinds = await runCli(['merge', 'compass', outs[1]!, join(dir, 'score', 's1'), '--out', merged]);
    expect(kinds.code).toBe(3);
    expect(kinds.stderr).toMatch(/holds a compass score result, not compass evaluate/);
  });
});
