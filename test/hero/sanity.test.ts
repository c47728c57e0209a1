/**
 * Sanity properties of HeroFrame scoring, with the VLM emulator as reader over HTTP. The emulator
 * runs without position bias here: these properties are about the scoring machinery, not about a
 * reader's placement noise (which makes near ties unresolved by design).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChains } from '../../src/hero/build/build.js';
import { imagePath } from '../../src/hero/dataset/layout.js';
import { loadChains } from '../../src/hero/dataset/load.js';
import { evaluate } from '../../src/hero/evaluate/evaluate.js';
import { heroInstructions } from '../../src/hero/prompt.js';
import { methodByName } from '../../src/hero/select/registry.js';
import { runSelection } from '../../src/hero/select/run.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { insertIntoChain } from '../../src/judge/insertion.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { decodeImage, encodeImage } from '../../src/media/image.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
let judge: Judge;
let data: string;
const enc = new ImageEncoder();
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator({ positionBias: 0 });
  judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url], backoffBaseMs: 5 }));
  data = join(tempDir(), 'heroframe');
  cpSync(mini.data, data, { recursive: true });
  await buildChains({
    data,
    lsmdc: mini.lsmdc,
    stills: mini.stills,
    judge,
    encoder: enc,
    chainsPerFilm: 4,
    seed: 1,
    stabilitySample: 0,
  });
});
afterAll(async () => emu.close());

const title = { title: 'test film', year: 2000 };

describe('HeroFrame scoring sanity (emulator as reader)', () => {
  it('a chain image removed and re-inserted into the other five lands where it was in ≥ 90 % of cases', async () => {
    const chains = await loadChains(data);
    let same = 0;
    let total = 0;
    for (const [movie, f] of chains)
      for (const c of f.chains) {
        const imgs = await Promise.all(c.order.map((id) => enc.fromFile(imagePath(data, movie, id))));
        for (let i = 0; i < imgs.length; i++) {
          const rest = imgs.filter((_, j) => j !== i);
          const r = await insertIntoChain(judge, imgs[i]!, rest, heroInstructions(title), 'pairwise');
          total++;
          if (r.position === rest.length - i) same++;
        }
      }
    expect(total).toBe(2 * 4 * 6);
    expect(same / total).toBeGreaterThanOrEqual(0.9);
  });

  it("a near-duplicate of a chain's best image scores ≥ 5/6", async () => {
    const chains = await loadChains(data);
    for (const [movie, f] of chains)
      for (const c of f.chains) {
        const imgs = await Promise.all(c.order.map((id) => enc.fromFile(imagePath(data, movie, id))));
        const best = await decodeImage(readFileSync(imagePath(data, movie, c.order[0]!)), 'best');
        const near = await enc.fromRaw(
          await decodeImage(await encodeImage(best, { format: 'jpeg', quality: 80 }), 'near-duplicate'),
        );
        const r = await insertIntoChain(judge, near, imgs, heroInstructions(title), 'pairwise');
        expect(r.position / imgs.length).toBeGreaterThanOrEqual(5 / 6);
      }
  });

  it('random lands near the middle of the scale; listwise and binary agree with pairwise on a measured share, with fewer calls', async () => {
    const dir = tempDir();
    const sel = join(dir, 'random.jsonl');
    await runSelection({ method: methodByName('random'), data, track: mini.track, out: sel, k: 5, seed: 3 });
    const runs = {} as Record<string, Awaited<ReturnType<typeof evaluate>>>;
    const calls: Record<string, number> = {};
    for (const protocol of ['pairwise', 'listwise', 'binary'] as const) {
      const j = new Judge(
        new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url], backoffBaseMs: 5 }),
      );
      runs[protocol] = await evaluate({
        data,
        track: mini.track,
        methods: [{ method: 'random', file: sel }],
        judge: j,
        encoder: enc,
        protocol,
        bootstrapB: 200,
      });
      calls[protocol] = j.stats.calls;
    }
    const S = runs.pairwise!.summary.methods[0]!.S;
    expect(S).toBeGreaterThan(0.2);
    expect(S).toBeLessThan(0.8);
    const pos = (p: string) => runs[p]!.insertions.map((i) => i.position);
    const agree = (p: string) =>
      pos(p).filter((v, i) => v === pos('pairwise')[i]).length / pos('pairwise').length;
    const report = { listwise_agreement: agree('listwise'), binary_agreement: agree('binary'), calls };
    writeFileSync(join(dir, 'protocols.json'), JSON.stringify(report));
    console.log('protocol agreement with pairwise and calls:', JSON.stringify(report));
    expect(agree('listwise')).toBeGreaterThanOrEqual(0.5);
    expect(agree('binary')).toBeGreaterThanOrEqual(0.5);
    expect(calls.binary!).toBeLessThan(calls.pairwise!);
    expect(calls.listwise!).toBeLessThan(calls.binary!);
  });
});
