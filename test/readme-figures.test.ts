/**
 * The README's table of what the mini sets are (section "Quickstart") states figures of the
 * generated material; each is checked here against the definitions the sets are built from, so
 * the table cannot drift from the code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CHAINS_PER_FILM } from '../src/runs/demo-hero.js';
import { MINI_CASES } from '../src/synthetic/mini-compass/build.js';
import { MODELS, QUALITY_MODELS } from '../src/synthetic/mini-compass/plans.js';
import { MINI_FILMS } from '../src/synthetic/mini-hero.js';
import { ROOT } from './support/paths.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The mini-set column of the table row whose first cell is `label`. */
function mini(label: string): string {
  const row = readme.split('\n').find((l) => l.startsWith(`| ${label} |`));
  expect(row, label).toBeDefined();
  return row!.split('|')[3]!.trim();
}

describe("the README's mini-set table", () => {
  it('states the films, their lengths, the chains and the frame track as the mini HeroFrame set is built', () => {
    const seconds = MINI_FILMS.map((f) => f.seconds);
    expect(mini('HeroFrame films')).toBe(
      `${MINI_FILMS.length} films of ${Math.min(...seconds)}–${Math.max(...seconds)} s made with ffmpeg from procedural sources and CC0 photos, ${MINI_FILMS.length * DEMO_CHAINS_PER_FILM} chains of 6 (${DEMO_CHAINS_PER_FILM} a film)`,
    );
    // frame k of a film is shown at k + 0.5 s: a film of whole seconds has one frame a second
    expect(mini('frame track')).toBe(`${seconds.reduce((a, b) => a + b, 0)} frames at 1 fps`);
  });

  it('states the cases and the fault "models" as the mini Compass set is built', () => {
    const structures = new Set(MINI_CASES.map((c) => c.structure));
    const counts = new Set(MINI_CASES.map((c) => c.n));
    expect(MINI_CASES).toHaveLength(structures.size * counts.size);
    expect(mini('Compass cases')).toBe(`${MINI_CASES.length}: one per structure and keyframe count`);
    const names = (l: readonly string[]) => l.map((m) => `\`${m}\``).join(', ');
    expect(mini('Compass "models"')).toBe(
      `generated faults: ${names(MODELS)} (response) and ${names(QUALITY_MODELS)} (quality)`,
    );
  });
});
