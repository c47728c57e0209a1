/**
 * Outputs never destroy inputs (issue 46, item 4), as a user meets it: a judge cache at a file the
 * run writes (`--judge-cache ev1/summary.json --out ev1`), an input file equal to an output file,
 * `merge --out` inside a shard — each is exit 2 naming both paths, before any call or write, and
 * the input is left byte for byte. The judge is the emulator over real HTTP.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { media, tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
let dir = '';
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator();
  dir = tempDir('kfbench-overlap-');
  const sel = await runCli([
    ...['hero', 'select', '--method', 'uniform', '--data', mini.data, '--track', mini.track],
    ...['--out', join(dir, 'uniform.jsonl'), '--k', '2'],
  ]);
  expect(sel.code, sel.stderr).toBe(0);
});
afterAll(async () => emu?.close());

const evaluate = (selections: string, out: string, ...extra: string[]) => [
  ...['hero', 'evaluate', '--selections', selections, '--data', mini.data, '--track', mini.track],
  ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--out', out, '--bootstrap', '200', ...extra],
];

describe('outputs never destroy inputs', () => {
  it('--judge-cache ev1/summary.json with --out ev1: exit 2 naming both, the cache kept, no call made', async () => {
    const ev1 = join(dir, 'ev1');
    const cache = join(ev1, 'summary.json');
    // a real cache at that path, filled by a run that wrote elsewhere
    const first = await runCli(
      evaluate(join(dir, 'uniform.jsonl'), join(dir, 'ev0'), '--judge-cache', cache),
    );
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(cache);
    const calls = emu.log.length;
    const r = await runCli(evaluate(join(dir, 'uniform.jsonl'), ev1, '--judge-cache', cache));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(
      `kfbench: --judge-cache ${cache} is the same path as --out ${cache}, which this run writes: give them apart`,
    );
    expect(readFileSync(cache).equals(before)).toBe(true);
    expect(emu.log.length).toBe(calls);
    expect(readdirSync(ev1)).toEqual(['summary.json']);
  });

  it('an input file that is an output file (--selections ev2/insertions.jsonl, --out ev2): exit 2', async () => {
    const ev2 = join(dir, 'ev2');
    mkdirSync(ev2);
    const sel = join(ev2, 'insertions.jsonl');
    copyFileSync(join(dir, 'uniform.jsonl'), sel);
    const before = readFileSync(sel);
    const r = await runCli(evaluate(sel, ev2));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--selections ${sel} is the same path as --out ${sel}`);
    expect(readFileSync(sel).equals(before)).toBe(true);
    expect(readdirSync(ev2)).toEqual(['insertions.jsonl']);
  });

  it('merge --out inside a shard: exit 2 naming both, the shard left as it was', async () => {
    const [s1, s2] = ['s1', 's2'].map((n) => join(dir, n)) as [string, string];
    for (const [out, shard] of [
      [s1, '1/2'],
      [s2, '2/2'],
    ] as const) {
      const r = await runCli(evaluate(join(dir, 'uniform.jsonl'), out, '--shard', shard));
      expect(r.code, r.stderr).toBe(0);
    }
    const listing = readdirSync(s1).sort();
    const inside = join(s1, 'merged');
    const r = await runCli(['merge', 'hero', s1, s2, '--out', inside]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(
      `kfbench: --out ${inside} is inside shard ${s1}, which this run reads: write elsewhere`,
    );
    expect(readdirSync(s1).sort()).toEqual(listing);
    expect(existsSync(inside)).toBe(false);
    // beside the shards it merges
    const ok = await runCli(['merge', 'hero', s1, s2, '--out', join(dir, 'merged')]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a file output equal to an input (media grid a.png b.png --out a.png): exit 2, the input kept', async () => {
    const d = tempDir('kfbench-overlap-grid-');
    const [a, b] = ['a.png', 'b.png'].map((n) => join(d, n)) as [string, string];
    copyFileSync(media('base.png'), a);
    copyFileSync(media('blur.png'), b);
    const before = readFileSync(a);
    const r = await runCli(['media', 'grid', a, b, '--out', a]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(
      `kfbench: image ${a} is the same path as --out ${a}, which this run writes: give them apart`,
    );
    expect(readFileSync(a).equals(before)).toBe(true);
  });
});
