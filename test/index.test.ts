/** The public API is a chosen list: what the README's library examples import is there, HeroFrame included, and no barrel re-exports everything. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBRARY, loadedOf } from '../src/cli/impls.js';
import * as api from '../src/index.js';
import { ROOT } from './support/paths.js';

describe('src/index.ts', () => {
  it("exports every name the docs' library examples import from 'kfbench'", () => {
    const readme = ['README.md', 'docs/development.md', 'docs/building-blocks.md']
      .map((f) => readFileSync(join(ROOT, f), 'utf8'))
      .join('\n');
    const names = [...readme.matchAll(/import \{([^}]+)\} from 'kfbench'/g)].flatMap((m) =>
      m[1]!.split(',').map((s) => s.trim()),
    );
    expect(names.length).toBeGreaterThan(3);
    for (const n of names) expect(api, n).toHaveProperty(n);
  });

  it('exports every error class of src/errors.ts and the names the README says are exported', () => {
    const errors = readFileSync(join(ROOT, 'src', 'errors.ts'), 'utf8');
    for (const [, n] of errors.matchAll(/^export class (\w+)/gm)) expect(api, n).toHaveProperty(n!);
    const readme = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8');
    const library = readme.slice(
      readme.indexOf('## Library'),
      readme.indexOf('\n## ', readme.indexOf('## Library') + 5),
    );
    for (const n of [
      'Semaphore',
      'runPool',
      'RateLimiter',
      'HeroSummary',
      'ResponseRow',
      'VideoEvaluation',
      'Leaderboard',
    ]) {
      expect(library).toContain(`\`${n}\``);
      expect(api, n).toHaveProperty(n);
    }
  });

  it('exports the runs the CLI makes: the command and a library user call the same function', async () => {
    for (const n of ['evaluateHeroRun', 'writeHeroRun', 'scoreVideoResponse', 'compassSensitivity'])
      expect(api, n).toHaveProperty(n);
    // the CLI's entries load their module when called (issue 58 item 6): what they load is the export
    expect(await loadedOf(LIBRARY.evaluateHero)).toBe(api.evaluateHeroFolder);
    expect(await loadedOf(LIBRARY.buildChains)).toBe(api.buildChainsRun);
    expect(await loadedOf(LIBRARY.scoreCompass)).toBe(api.scoreCompass);
    expect(await loadedOf(LIBRARY.compassSensitivity)).toBe(api.compassSensitivity);
    expect(await loadedOf(LIBRARY.evaluateCompassRun)).toBe(api.evaluateCompassRun);
    expect(await loadedOf(LIBRARY.planCompassEvaluation)).toBe(api.planCompassEvaluation);
    expect(await loadedOf(LIBRARY.select)).toBe(api.selectRun);
    expect(await loadedOf(LIBRARY.rebuildTrack)).toBe(api.rebuildTrack);
    for (const n of [
      'selectRun',
      'fitReaderRun',
      'checkReaderRun',
      'humanAgreementRun',
      'rubricSwapRun',
      'exportScoresFile',
      'mergeHeroRun',
      'mergeCompassRun',
      'withJudge',
      'evaluateHeroFolder',
    ])
      expect(api, n).toHaveProperty(n);
  });

  it('includes HeroFrame end to end: dataset, track, selection, chains, evaluation, its schemas', () => {
    for (const n of [
      'validateDataset',
      'rebuildTrack',
      'runSelection',
      'METHODS',
      'buildChains',
      'evaluateHero',
      'writeHeroEvaluation',
      'fitHeroReader',
      'HeroSummary',
      'InsertionRecord',
      'FilmChains',
    ])
      expect(api, n).toHaveProperty(n);
    expect(api.HeroSummary.safeParse({ reader: 'r' }).success).toBe(false);
    expect(api.METHODS.map((m) => m.name)).toContain('uniform');
  });

  it('is a list of names, not barrels: no `export *` anywhere under src/, and no index.ts but the root one', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const src = join(ROOT, 'src');
    const all = files(src);
    expect(all.filter((f) => /export \* from/.test(readFileSync(f, 'utf8')))).toEqual([]);
    expect(all.filter((f) => f.endsWith('/index.ts'))).toEqual([join(src, 'index.ts')]);
  });
});
