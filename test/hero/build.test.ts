import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChains } from '../../src/hero/build/build.js';
import { loadCore } from '../../src/hero/dataset/load.js';
import { validateDataset } from '../../src/hero/dataset/validate.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { encodeImage } from '../../src/media/image.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { checkContracts, HERO_CONTRACTS } from '../support/contracts.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator();
});
afterAll(async () => emu.close());

describe('hero build with the emulator over HTTP', () => {
  it('writes valid chains in the published shape: 6 images, one still, 15 judged pairs, ordered by strength', async () => {
    const data = join(tempDir(), 'heroframe');
    cpSync(mini.data, data, { recursive: true });
    const cache = join(tempDir(), 'c.sqlite');
    const r = await runCli([
      'hero',
      'build',
      '--data',
      data,
      '--lsmdc',
      mini.lsmdc,
      '--stills',
      mini.stills,
      '--judge',
      `openai:kfbench-emulator@${emu.url}`,
      '--chains-per-film',
      '3',
      '--cache',
      cache,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep).toMatchObject({ films: 2, chains: 6, pairs: 90 });
    expect(rep.confident_share).toBeGreaterThan(0.5);
    const v = await validateDataset(data);
    expect(v.problems).toEqual([]);
    // what the build did is kept for `hero analyze corpus`
    const built = JSON.parse(readFileSync(join(data, 'stats', 'build_report.json'), 'utf8'));
    expect(built.still_replacements).toBe(rep.still_replacements);
    const tls = (await loadCore(data)).timelines;
    const chainLines = readFileSync(join(data, 'data', 'chains.jsonl'), 'utf8')
      .trim()
      .split('\n');
    for (const line of chainLines) {
      const f = JSON.parse(line);
      for (const c of f.chains) {
        const gammas = c.images.map((i: { gamma: number }) => i.gamma);
        expect([...gammas].sort((a: number, b: number) => b - a)).toEqual(gammas); // best first
        expect(c.images[0].theta_0_100).toBe(100);
        expect(c.images[5].theta_0_100).toBe(0);
        expect(c.images.filter((i: { source: string }) => i.source === 'still')).toHaveLength(1);
        // sampled frames sit off the 1 fps grid: no track frame is the same image
        for (const im of c.images.filter((i: { source: string }) => i.source === 'sampled')) {
          expect(tls.get(f.movie_id)!.frameOf(im.clip_id, im.t_in_clip)).toBeUndefined();
        }
      }
    }
    // every file the build wrote round-trips through its one schema
    expect(
      checkContracts(data, HERO_CONTRACTS, /^(data\/chains|images\/image_sha256|stats\/build_report)/),
    ).toEqual(['data/chains.jsonl', 'images/image_sha256.jsonl', 'stats/build_report.json']);
    // a second, independent run into a fresh copy of the dataset, served by the cache, writes the same files
    const data2 = join(tempDir(), 'heroframe');
    cpSync(mini.data, data2, { recursive: true });
    const again = await runCli([
      ...['hero', 'build', '--data', data2, '--lsmdc', mini.lsmdc, '--stills', mini.stills],
      ...[
        '--judge',
        `openai:kfbench-emulator@${emu.url}`,
        '--chains-per-film',
        '3',
        '--cache',
        cache,
        '--json',
      ],
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).calls).toBe(0);
    for (const f of ['data/chains.jsonl', 'images/image_sha256.jsonl', 'stats/build_report.json'])
      expect(readFileSync(join(data2, f), 'utf8'), f).toBe(readFileSync(join(data, f), 'utf8'));
    const images = (d: string) =>
      readdirSync(join(d, 'images'), { recursive: true, encoding: 'utf8' })
        .filter((x) => x.endsWith('.jpg'))
        .sort();
    expect(images(data2)).toEqual(images(data));
  });
});

describe('hero build: the details that move numbers', () => {
  it('reads stills by the name they were listed with (.jpeg, .JPG); a film out of stills keeps its chain, flagged and counted', async () => {
    const data = join(tempDir(), 'heroframe');
    cpSync(mini.data, data, { recursive: true });
    const stills = join(tempDir(), 'stills');
    const [keep, starve] = readdirSync(mini.stills).sort();
    // film 1: its stills listed as .jpeg and .JPG
    mkdirSync(join(stills, keep!), { recursive: true });
    for (const [i, f] of readdirSync(join(mini.stills, keep!)).sort().entries())
      copyFileSync(
        join(mini.stills, keep!, f),
        join(stills, keep!, f.replace(/\.jpg$/, i % 2 ? '.JPG' : '.jpeg')),
      );
    // film 2: one flat grey still, which the emulator ranks last (no sharpness, colour or subject)
    mkdirSync(join(stills, starve!), { recursive: true });
    const grey = {
      width: 320,
      height: 180,
      channels: 3 as const,
      data: new Uint8Array(320 * 180 * 3).fill(128),
    };
    writeFileSync(join(stills, starve!, 'rmflatgrey.jpg'), await encodeImage(grey, { format: 'jpeg' }));
    const r = await runCli([
      'hero',
      'build',
      '--data',
      data,
      '--lsmdc',
      mini.lsmdc,
      '--stills',
      stills,
      '--judge',
      `openai:kfbench-emulator@${emu.url}`,
      '--chains-per-film',
      '2',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    const films = readFileSync(join(data, 'data', 'chains.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const kept = films.find((f) => f.movie_id === keep)!;
    const stillIds = kept.chains.flatMap((c: { images: { source: string; image_id: string }[] }) =>
      c.images.filter((i) => i.source === 'still').map((i) => i.image_id),
    );
    for (const id of stillIds) expect(existsSync(join(data, 'images', keep!, `${id}.jpg`))).toBe(true);
    const starved = films.find((f) => f.movie_id === starve)!;
    expect(starved.chains).toHaveLength(2);
    for (const c of starved.chains) {
      const at = c.order.indexOf('rmflatgrey');
      expect(at).toBeGreaterThanOrEqual(3); // in the bottom half, and no still left to replace it
      expect(c.still_floor_unmet).toBe(true);
    }
    const flagged = films.flatMap((f) => f.chains).filter((c) => c.still_floor_unmet === true).length;
    expect(rep.still_floor_unmet).toBe(flagged);
    expect(rep.still_floor_unmet).toBeGreaterThanOrEqual(2);
    expect((await validateDataset(data)).problems).toEqual([]);
  });

  it('the stability re-judgement asks different questions (letters swapped), so a label-biased reader is caught', async () => {
    // the reader favours the first-shown image and the image labelled "A": in the first judgement
    // both biases favour the same image, in the relabelled re-judgement they cancel
    const biased = await startEmulator({ positionBias: 0.06, labelBias: 0.06 });
    try {
      const data = join(tempDir(), 'heroframe');
      cpSync(mini.data, data, { recursive: true });
      const judge = new Judge(
        new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [biased.url], backoffBaseMs: 5 }),
      );
      const rep = await buildChains({
        data,
        lsmdc: mini.lsmdc,
        stills: mini.stills,
        judge,
        encoder: new ImageEncoder(),
        chainsPerFilm: 1,
        stabilitySample: 1,
        seed: 0,
      });
      expect(rep.stability.chains).toBe(2);
      expect(rep.stability.agreement).toBeLessThan(1);
      expect(rep.stability.measures).toMatch(/letters swapped/);
      // the re-judgement also asks with another sampling seed (the first judgement sends none)
      const seeds = biased.log.map((l) => l.seed);
      expect(seeds.filter((x) => x === 1).length).toBe(2 * 15 * 2); // 2 chains × 15 pairs × 2 placements
      expect(seeds.filter((x) => x === undefined).length).toBeGreaterThan(0);
      // at temperature 0 an unbiased reader answers the relabelled questions alike
      const clean = await startEmulator({ positionBias: 0 });
      try {
        const judge0 = new Judge(
          new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [clean.url], backoffBaseMs: 5 }),
        );
        const rep0 = await buildChains({
          data,
          lsmdc: mini.lsmdc,
          stills: mini.stills,
          judge: judge0,
          encoder: new ImageEncoder(),
          chainsPerFilm: 1,
          stabilitySample: 1,
          seed: 0,
        });
        expect(rep0.stability.agreement).toBe(1);
      } finally {
        await clean.close();
      }
    } finally {
      await biased.close();
    }
  });
});
