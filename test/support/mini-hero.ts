/**
 * A two-film subset of the mini HeroFrame set, built once per machine and shared by test files
 * (a directory lock keeps parallel test processes from building it twice). Tests copy what they
 * change; the footage is read-only.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMiniHero, MINI_FILMS, MINI_VERSION, type MiniHeroPaths } from '../../src/dev/mini-hero.js';

export const TEST_FILMS = [MINI_FILMS[0]!, MINI_FILMS[3]!]; // 24 fps and 30000/1001 fps

export async function sharedMiniHero(): Promise<MiniHeroPaths> {
  const out = join(tmpdir(), `kfbench-test-mini-hero-v${MINI_VERSION}`);
  const lock = `${out}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await buildMiniHero(out, { films: TEST_FILMS });
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  } finally {
    if (existsSync(lock)) rmSync(lock, { recursive: true, force: true });
  }
}
