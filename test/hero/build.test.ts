import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/dev/emulator/server.js';
import type { MiniHeroPaths } from '../../src/dev/mini-hero.js';
import { loadCore } from '../../src/hero/dataset/load.js';
import { validateDataset } from '../../src/hero/dataset/validate.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator();
}, 300_000);
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
    // a re-run is served by the cache
    const again = JSON.parse(
      (
        await runCli([
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
        ])
      ).stdout,
    );
    expect(again.calls).toBe(0);
    expect(readFileSync(join(data, 'data', 'chains.jsonl'), 'utf8')).toBe(
      readFileSync(join(data, 'data', 'chains.jsonl'), 'utf8'),
    );
  });
});
