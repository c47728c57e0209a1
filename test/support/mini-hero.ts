/**
 * A two-film subset of the mini HeroFrame set, built once per machine and shared by test files.
 * Tests copy what they change; the footage is read-only.
 */
import { buildMiniHero, MINI_FILMS, MINI_VERSION, type MiniHeroPaths } from '../../src/dev/mini-hero.js';
import { sharedBuild } from './shared-build.js';

export const TEST_FILMS = [MINI_FILMS[0]!, MINI_FILMS[3]!]; // 24 fps and 30000/1001 fps

export function sharedMiniHero(): Promise<MiniHeroPaths> {
  return sharedBuild(`kfbench-test-mini-hero-v${MINI_VERSION}`, (out) =>
    buildMiniHero(out, { films: TEST_FILMS }),
  );
}
