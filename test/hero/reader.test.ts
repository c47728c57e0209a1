import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confidentPairs, fitHeroReader } from '../../src/hero/reader/reader.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator();
});
afterAll(async () => emu.close());

describe('hero fit-reader and check-reader', () => {
  it('fits on every confident pair and reports cross-validated agreement by film', async () => {
    const pairs = await confidentPairs(mini.data);
    expect(pairs.length).toBeGreaterThan(20);
    const r = await fitHeroReader({ data: mini.data });
    expect(r.pairs).toBe(pairs.length);
    expect(r.films).toBe(2);
    expect(r.folds).toHaveLength(2);
    expect(r.cv_agreement).toBeGreaterThanOrEqual(0);
    expect(r.cv_agreement).toBeLessThanOrEqual(1);
    expect(r.reader.w).toHaveLength(208);
  });

  it('a fitted reader agrees with the chains it was fitted on, through the CLI; the emulator is checked the same way', async () => {
    const dir = tempDir();
    const reader = join(dir, 'reader.json');
    const fit = await runCli([
      'hero',
      'fit-reader',
      '--data',
      mini.data,
      '--out',
      reader,
      '--lambda',
      '0.01',
      '--json',
    ]);
    expect(fit.code, fit.stderr).toBe(0);
    const local = JSON.parse(
      (
        await runCli([
          'hero',
          'check-reader',
          '--data',
          mini.data,
          '--judge',
          `local:${reader}`,
          '--protocol',
          'pairwise',
          '--json',
        ])
      ).stdout,
    );
    expect(local.reader).toMatch(/^local:reader-/);
    expect(local.unresolved).toBe(0); // the local reader never contradicts itself
    expect(local.agreement).toBeGreaterThan(0.8); // in-sample, lightly regularised
    expect(local.ci[0]).toBeLessThan(local.agreement);
    const cache = join(dir, 'c.sqlite');
    const viaEmu = await runCli([
      'hero',
      'check-reader',
      '--data',
      mini.data,
      '--judge',
      `openai:kfbench-emulator@${emu.url}`,
      '--sample',
      '10',
      '--cache',
      cache,
      '--protocol',
      'pairwise',
      '--json',
    ]);
    expect(viaEmu.code, viaEmu.stderr).toBe(0);
    expect(JSON.parse(viaEmu.stdout)).toMatchObject({ pairs: 10, reader: 'openai:kfbench-emulator' });
    // by default the check asks what hero evaluate asks: one positional question per chain image
    const listwise = await runCli([
      'hero',
      'check-reader',
      '--data',
      mini.data,
      '--judge',
      `openai:kfbench-emulator@${emu.url}`,
      '--sample',
      '10',
      '--cache',
      cache,
      '--json',
    ]);
    expect(listwise.code, listwise.stderr).toBe(0);
    expect(JSON.parse(listwise.stdout)).toMatchObject({ protocol: 'listwise', insertions: 10 });
    // chains built by the local reader itself: it puts the chain images back in place
    const data = join(tempDir(), 'heroframe');
    cpSync(mini.data, data, { recursive: true });
    const built = await runCli([
      'hero',
      'build',
      '--data',
      data,
      '--lsmdc',
      mini.lsmdc,
      '--stills',
      mini.stills,
      '--judge',
      `local:${reader}`,
      '--chains-per-film',
      '1',
    ]);
    expect(built.code, built.stderr).toBe(0);
    const own = JSON.parse(
      (await runCli(['hero', 'check-reader', '--data', data, '--judge', `local:${reader}`, '--json'])).stdout,
    );
    // (the build judged the frames as decoded, the check reads the stored JPEGs: near ties may move one place)
    expect(own).toMatchObject({ protocol: 'listwise', insertions: 12, within_one: 1, unresolved: 0 });
    expect(own.agree).toBeGreaterThanOrEqual(10);
    expect(own.mean_abs_error).toBe((12 - own.agree) / 12);
  });
});
