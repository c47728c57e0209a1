/**
 * A two-film subset of the mini HeroFrame set, built once per machine and shared by test files.
 * Tests copy what they change; the footage is read-only.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FilmChains } from '../../src/hero/dataset/schemas.js';
import { buildMiniHero, MINI_FILMS, type MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { generatorHash } from './generator-hash.js';
import { sharedBuild } from './shared-build.js';

export const TEST_FILMS = [MINI_FILMS[0]!, MINI_FILMS[3]!]; // 24 fps and 30000/1001 fps

export function sharedMiniHero(): Promise<MiniHeroPaths> {
  return sharedBuild(`kfbench-test-mini-hero-${generatorHash('src/synthetic/mini-hero.ts')}`, (out) =>
    buildMiniHero(out, { films: TEST_FILMS }),
  );
}

/**
 * The fixture that keeps kfbench's older shape: a copy of a dataset root whose chains.jsonl is
 * rewritten with `chain_id`, `order`, and per image `source`, `clip_id`, `t_in_clip` (as `hero
 * build` writes them), without any field only the release has. Returns the copy's root.
 */
export function ownShapeCopy(data: string, dir: string): string {
  const out = join(dir, 'heroframe-own-shape');
  cpSync(data, out, { recursive: true });
  const file = join(out, 'data', 'chains.jsonl');
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const f = FilmChains.parse(JSON.parse(l));
      return {
        movie_id: f.movie_id,
        chains: f.chains.map((c) => ({
          chain_id: c.chain_id,
          order: c.order,
          images: c.images.map((i) => ({
            image_id: i.image_id,
            source: i.source,
            ...(i.clip_id !== undefined ? { clip_id: i.clip_id, t_in_clip: i.t_in_clip } : {}),
            gamma: i.gamma,
            theta_0_100: i.theta_0_100,
          })),
          pairs: c.pairs.map((p) => ({ a: p.a, b: p.b, winner: p.winner, status: p.status })),
        })),
      };
    });
  writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return out;
}
