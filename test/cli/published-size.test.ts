/**
 * `hero mini --size` / `compass mini --size`: the generated sets at a fraction of the published
 * counts (here 1/100: 2 films, 4 cases) hold the counts the published size scales to, in the
 * release's shape, and `hero validate`, `hero track verify`, `compass validate` accept them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonlAll } from '../../src/store/jsonl.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';

// biome-ignore lint/suspicious/noExplicitAny: rows are checked field by field below
const jsonl = async (file: string): Promise<any[]> =>
  (await readJsonlAll(file, z.looseObject({}))).map((l) => l.value);

let dir = '';
beforeAll(() => {
  dir = tempDir('kfbench-published-size-');
});

describe('hero mini --size 0.01', () => {
  it('writes 2 films at the published per-film counts, which hero validate and track verify accept', async () => {
    const out = join(dir, 'hero');
    const built = await runCli(['hero', 'mini', '--size', '0.01', '--out', out, '--json']);
    expect(built.stderr).not.toMatch(/Error/);
    expect(built.code).toBe(0);
    const p = JSON.parse(built.stdout);
    expect(p.counts).toMatchObject({ films: 2, chains: 20, verify_rows: 48 });
    const data = join(out, 'heroframe');
    const chains = await jsonl(join(data, 'data', 'chains.jsonl'));
    expect(chains).toHaveLength(2);
    for (const f of chains) {
      // the release's shape: no chain_id / order / source; 6 images, 15 pairs per chain
      expect(f).toMatchObject({ block: '02_chains', n_chains: 10, chain_size: 6 });
      for (const c of f.chains) {
        expect(c).not.toHaveProperty('chain_id');
        expect(c).not.toHaveProperty('order');
        expect(c.images).toHaveLength(6);
        expect(c.pairs).toHaveLength(15);
      }
    }
    // 5 stills shared by the 10 chains of a film: at most 55 distinct images per film (a sampled
    // frame drawn by two chains is one image, as in the release)
    const files = chains.map((f) => readdirSync(join(data, 'images', f.movie_id)).length);
    expect(files.reduce((a, b) => a + b, 0)).toBe(p.counts.images);
    for (const n of files) expect(n).toBeGreaterThan(45);
    for (const n of files) expect(n).toBeLessThanOrEqual(55);
    // ~2,450 track rows per film (500,000 / 204), one per second of its clips
    const track = await jsonl(join(data, 'frame_track', 'track_index.jsonl.zst'));
    expect(track).toHaveLength(p.counts.track_frames);
    expect(track.length).toBeGreaterThan(2 * 2000);
    expect(track.length).toBeLessThan(2 * 2900);
    expect((await jsonl(join(data, 'data', 'rubrics.jsonl')))[0].criteria).toHaveLength(4);
    const sel = await jsonl(join(out, 'selections', 'uniform5.jsonl'));
    expect(sel.map((s) => s.frames.length)).toEqual([5, 5]);
    for (const s of sel)
      for (const f of s.frames)
        expect(existsSync(join(out, 'track', s.movie_id, `${f.frame_idx}.jpg`))).toBe(true);

    const v = await runCli(['hero', 'validate', '--data', data, '--json']);
    expect(v.stderr).toBe('');
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout).summary).toMatchObject({
      films: 2,
      chains: 20,
      images: p.counts.images,
      criteria: 8,
      pairs: 300,
      track_frames: track.length,
      verify_rows: 48,
    });
    const verify = await runCli(['hero', 'track', 'verify', '--data', data, '--track', join(out, 'track')]);
    expect(verify.code).toBe(0);

    // built once: a second run reuses it
    const again = await runCli(['hero', 'mini', '--size', '0.01', '--out', out, '--json']);
    expect(JSON.parse(again.stdout).counts).toEqual(p.counts);
  });

  it('refuses a size that is not mini, published or a fraction in (0, 1] (exit 2)', async () => {
    const r = await runCli(['hero', 'mini', '--size', '3/2', '--out', join(dir, 'bad')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--size 3\/2/);
    expect(existsSync(join(dir, 'bad'))).toBe(false);
  });
});

describe('compass mini --size 0.01', () => {
  it('writes 4 cases × 2 prompt modes, which compass validate accepts', async () => {
    const out = join(dir, 'compass');
    const built = await runCli(['compass', 'mini', '--size', '0.01', '--out', out]);
    expect(built.code).toBe(0);
    const cases = await jsonl(join(out, 'cases.jsonl'));
    expect(cases.map((c) => c.keyframes.length)).toEqual([3, 6, 9, 12]);
    const videos = readdirSync(join(out, 'videos', 'faithful')).sort();
    expect(videos).toHaveLength(8);
    expect(videos[0]).toBe('pc-0001__minimal.mp4');
    // the two prompt modes' videos differ in their bytes (no scan cache hit between them)
    const a = readFileSync(join(out, 'videos', 'faithful', 'pc-0001__minimal.mp4'));
    const b = readFileSync(join(out, 'videos', 'faithful', 'pc-0001__segment_specific.mp4'));
    expect(a.equals(b)).toBe(false);
    const v = await runCli(['compass', 'validate', '--cases', join(out, 'cases.jsonl'), '--json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ cases: 4, keyframes: 30 });
  });
});
