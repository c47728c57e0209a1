/**
 * Folders split by `--movies` merge like shards (issue 31; `--movies`'s help says a merge then
 * needs the others from other folders): two runs of one film each, merged, equal the run of both
 * films byte for byte. The mini HeroFrame set against the emulator.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let hero: MiniHeroPaths;
let emu: Emulator;
beforeAll(async () => {
  hero = await sharedMiniHero();
  emu = await startEmulator();
});
afterAll(async () => emu?.close());

const read = (d: string, f: string) => readFileSync(join(d, f), 'utf8');

describe('merge hero of --movies folders', () => {
  it('two one-film runs merged equal the run of both', async () => {
    const dir = tempDir('kfbench-merge-movies-');
    const sel = join(dir, 'uniform.jsonl');
    const ok = async (args: string[]) => {
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(0);
    };
    await ok([
      ...['hero', 'select', '--method', 'uniform', '--data', hero.data, '--track', hero.track],
      ...['--out', sel, '--k', '2'],
    ]);
    const evaluate = (out: string, ...extra: string[]) =>
      ok([
        ...['hero', 'evaluate', '--selections', sel, '--data', hero.data, '--track', hero.track],
        ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--cache', join(out, 'cache.sqlite')],
        ...['--out', out, '--bootstrap', '200', ...extra],
      ]);
    const [a, b] = TEST_FILMS.map((f) => f.movie_id) as [string, string];
    const full = join(dir, 'full');
    await evaluate(full);
    await evaluate(join(dir, 'a'), '--movies', a);
    await evaluate(join(dir, 'b'), '--movies', b);
    const merged = join(dir, 'merged');
    await ok(['merge', 'hero', join(dir, 'a'), join(dir, 'b'), '--out', merged]);
    for (const f of ['summary.json', 'insertions.jsonl', 'per_film.csv', 'settings.json'])
      expect(read(merged, f), f).toBe(read(full, f));
    // one of them alone is not the whole: the other film is missing
    const alone = await runCli(['merge', 'hero', join(dir, 'a'), '--out', join(dir, 'alone')]);
    expect(alone.code).toBe(3);
    expect(alone.stderr).toContain(`the shards miss 1 of 2 item(s): ${b}`);
  });
});
