import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KfbenchError, UsageError } from '../../src/errors.js';
import { trackFramePath } from '../../src/hero/dataset/layout.js';
import { loadCore } from '../../src/hero/dataset/load.js';
import { checkSelections } from '../../src/hero/dataset/selections.js';
import { METHODS, methodByName } from '../../src/hero/select/registry.js';
import { runSelection } from '../../src/hero/select/run.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { loadImage } from '../../src/media/image.js';
import { imageStats } from '../../src/media/image-stats.js';
import type { ProgressEvent } from '../../src/progress.js';
import { createRng } from '../../src/stats/rng.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { ROOT, tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
let judge: Judge;
const encoder = new ImageEncoder();
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator();
  judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url], backoffBaseMs: 5 }));
});
afterAll(async () => emu.close());

type Rows = { movie_id: string; frames: { rank: number; frame_idx: number }[] }[];
const read = (f: string): Rows =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

async function select(name: string, seed = 0, k = 5): Promise<{ file: string; rows: Rows }> {
  const file = join(tempDir(), `${name}.jsonl`);
  await runSelection({
    method: methodByName(name),
    data: mini.data,
    track: mini.track,
    lsmdc: mini.lsmdc,
    judge: { judge, encoder },
    out: file,
    k,
    seed,
  });
  return { file, rows: read(file) };
}

describe('selection methods', () => {
  it.each(METHODS.map((m) => m.name))('%s: valid, ranked, deterministic for a seed', async (name) => {
    const a = await select(name, 7);
    const b = await select(name, 7);
    expect(a.rows).toEqual(b.rows);
    const ds = await loadCore(mini.data);
    const check = await checkSelections(a.file, ds.timelines);
    expect(check.problems).toEqual([]);
    for (const r of a.rows) {
      expect(r.frames.length).toBeGreaterThanOrEqual(1);
      expect(r.frames.length).toBeLessThanOrEqual(5);
    }
  });

  it('random changes with the seed; the others do not depend on it', async () => {
    expect((await select('random', 1)).rows).not.toEqual((await select('random', 2)).rows);
    expect((await select('sharpest', 1)).rows).toEqual((await select('sharpest', 2)).rows);
  });

  it.each([
    ['sharpest', 'sharpness'],
    ['colourful', 'colourfulness'],
  ] as const)('%s picks frames above the film median of %s', async (name, key) => {
    const { rows } = await select(name);
    const ds = await loadCore(mini.data);
    for (const r of rows) {
      const n = ds.timelines.get(r.movie_id)!.frameCount;
      const all = [];
      for (let i = 0; i < n; i++)
        all.push((await imageStats(await loadImage(trackFramePath(mini.track, r.movie_id, i))))[key]);
      const median = [...all].sort((x, y) => x - y)[Math.floor(n / 2)]!;
      for (const f of r.frames) expect(all[f.frame_idx]!).toBeGreaterThan(median);
    }
  });

  it('uniform spreads k frames evenly; k is respected', async () => {
    const { rows } = await select('uniform', 0, 3);
    const ds = await loadCore(mini.data);
    for (const r of rows) {
      const n = ds.timelines.get(r.movie_id)!.frameCount;
      expect(r.frames.map((f) => f.frame_idx)).toEqual([0, 1, 2].map((i) => Math.floor(((i + 0.5) * n) / 3)));
    }
  });

  it('a method that needs clips or a judge says so when they are missing', async () => {
    const out = join(tempDir(), 'x.jsonl');
    await expect(
      runSelection({ method: methodByName('shot-centre'), data: mini.data, track: mini.track, out }),
    ).rejects.toThrow(UsageError);
    await expect(
      runSelection({ method: methodByName('vlm-pick'), data: mini.data, track: mini.track, out }),
    ).rejects.toThrow(/pass --judge/);
  });

  it('a method that returns invalid frames is a typed internal error naming it; progress names every film done', async () => {
    const events: ProgressEvent[] = [];
    const out = join(tempDir(), 'x.jsonl');
    const uniform = methodByName('uniform');
    await runSelection({
      method: uniform,
      data: mini.data,
      track: mini.track,
      out,
      k: 2,
      onProgress: (e) => events.push(e),
    });
    const films = [...(await loadCore(mini.data)).timelines.keys()].sort();
    expect(events).toEqual([
      { type: 'phase-started', phase: 'select', total: films.length, unit: 'films', note: 'uniform' },
      ...films.map((item) => ({ type: 'item-done', phase: 'select', item })),
      { type: 'phase-finished', phase: 'select', done: films.length },
    ]);
    for (const bad of [[0, 0], [-1], [1.5], [1e9]]) {
      const broken = { ...uniform, name: 'broken', select: async () => bad };
      const e = await runSelection({ method: broken, data: mini.data, track: mini.track, out }).catch(
        (x) => x,
      );
      expect(e).toBeInstanceOf(KfbenchError);
      expect(e.code).toBe('INTERNAL');
      expect(e.message).toMatch(/^method broken returned invalid frames for /);
    }
  });

  it('vlm-pick ranks by the judge: its first pick beats its second under the emulator', async () => {
    const { rows } = await select('vlm-pick', 0, 2);
    for (const r of rows) {
      const [a, b] = await Promise.all(
        r.frames.map((f) => encoder.fromFile(trackFramePath(mini.track, r.movie_id, f.frame_idx))),
      );
      const { comparePair } = await import('../../src/judge/pairwise.js');
      const c = await comparePair(judge, a!, b!, 'x');
      expect(c.winner === 'A' || c.status === 'unresolved').toBe(true);
    }
  });

  it('docs/heroframe.md names every method', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'heroframe.md'), 'utf8');
    for (const m of METHODS) expect(readme).toContain(`\`${m.name}\``);
  });

  it('CLI: vlm-pick finds its judge in KFBENCH_JUDGE or --config like every other command', async () => {
    const base = ['hero', 'select', '--method', 'vlm-pick', '--data', mini.data, '--track', mini.track];
    const spec = `openai:kfbench-emulator@${emu.url}`;
    const viaEnv = join(tempDir(), 'env.jsonl');
    const before = emu.log.length;
    const r1 = await runCli([...base, '--out', viaEnv, '--k', '2'], { env: { KFBENCH_JUDGE: spec } });
    expect(r1.code, r1.stderr).toBe(0);
    expect(emu.log.length).toBeGreaterThan(before);
    const cfg = join(tempDir(), 'judge.json');
    writeFileSync(cfg, JSON.stringify({ judge: spec }));
    const viaConfig = join(tempDir(), 'cfg.jsonl');
    const r2 = await runCli([...base, '--out', viaConfig, '--k', '2', '--config', cfg], {
      env: { KFBENCH_JUDGE: '' },
    });
    expect(r2.code, r2.stderr).toBe(0);
    expect(read(viaConfig)).toEqual(read(viaEnv));
    const none = await runCli([...base, '--out', join(tempDir(), 'n.jsonl')], { env: { KFBENCH_JUDGE: '' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no judge given: pass --judge .*KFBENCH_JUDGE/);
  });

  it('CLI: writes the selections; an unknown method is a usage error', async () => {
    const out = join(tempDir(), 's.jsonl');
    const r = await runCli([
      'hero',
      'select',
      '--method',
      'hecate-like',
      '--data',
      mini.data,
      '--track',
      mini.track,
      '--out',
      out,
      '--k',
      '3',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ method: 'hecate-like', films: 2 });
    const bad = await runCli([
      'hero',
      'select',
      '--method',
      'clip-score',
      '--data',
      mini.data,
      '--track',
      mini.track,
      '--out',
      out,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--method must be one of random, uniform/);
  });
});

describe('what a method reads beyond the track frames', () => {
  it('a method that reads ctx.judge, ctx.clips or ctx.embedder without it is an internal error naming it', async () => {
    const ctx = {
      movieId: 'm',
      frameCount: 10,
      k: 5,
      rng: createRng('needs'),
      frame: () => Promise.reject(new Error('not read')),
      stats: () => Promise.reject(new Error('not read')),
    };
    for (const [name, what] of [
      ['vlm-pick', 'judge'],
      ['shot-centre', 'clips'],
      ['cluster', 'embedder'],
    ] as const)
      await expect(methodByName(name).select(ctx)).rejects.toMatchObject({
        name: 'InternalError',
        message: `selection method ${name} reads ctx.${what} without declaring needs.${what}`,
      });
  });
});
