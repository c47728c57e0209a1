/** The viewer's loader never throws on bad input: every problem becomes one line naming the folder or file:line. */
import { closeSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResponseRow } from '../../src/compass/schemas/response.js';
import type { HeroSummary, InsertionRecord } from '../../src/hero/results.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { loadViewerData } from '../../src/web/data.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let hero: MiniHeroPaths;
let compass: MiniCompassPaths;
const dir = tempDir('kfbench-viewer-data-');

const insertion = (movie_id: string): InsertionRecord => ({
  method: 'm',
  movie_id,
  frame: 3,
  rank: 1,
  chain_id: 'c',
  position: 2,
  chain_length: 6,
  s: 1 / 3,
  above_still: false,
  unresolved: 0,
  calls: 1,
  cached: 0,
  questions: 1,
  checks: 0,
  disagreed: 0,
});
/** A summary of nothing scored, in the one shape summary.json has. */
const summary: HeroSummary = {
  reader: 'r',
  protocol: 'pairwise',
  both_orders: false,
  disagreement_rule: null,
  questions: 0,
  questions_per_insertion: 0,
  disagreement: { checks: 0, disagreed: 0, rate: null },
  methods: [],
  official: [],
  paired: [],
  warnings: [],
};
const metrics = { presence: 1, fidelity: 1, ordering: 1, localization: 1, persistence: 1, uniqueness: 1 };
const response = (case_id: string): ResponseRow => ({
  case_id,
  embedder: 'builtin',
  model: 'faithful',
  status: 'scored',
  segmenter: 'pixel',
  prompt_mode: 'minimal',
  structure: 'multi_shot',
  n_keyframes: 0,
  conditioning: 'image_list',
  gamma: 0.76,
  keyframes: [],
  shots: [],
  metrics,
  groups: { keyframe_fidelity: 1, temporal_organization: 1 },
  sample_fps: 24,
});

beforeAll(async () => {
  hero = await sharedMiniHero();
  compass = await sharedMiniCompass();
  const h = join(dir, 'hero');
  mkdirSync(h);
  writeFileSync(join(h, 'summary.json'), JSON.stringify(summary));
  writeFileSync(
    join(h, 'insertions.jsonl'),
    [
      JSON.stringify(insertion(TEST_FILMS[0]!.movie_id)),
      '{not json',
      JSON.stringify(insertion('7777_Elsewhere')),
    ].join('\n'),
  );
  const c = join(dir, 'compass');
  mkdirSync(c);
  writeFileSync(
    join(c, 'response.jsonl'),
    [
      JSON.stringify(response('ot-03')),
      JSON.stringify(response('zz-01')),
      // a keyframe without its times: the case page could not draw it, so the row is skipped
      JSON.stringify({ ...response('ot-06'), keyframes: [{ kf_id: 'kf01', matched: true, cos: 0.9 }] }),
    ].join('\n'),
  );
  // a leaderboard from something else: shown as a problem, the rest of the folder still shown
  writeFileSync(join(c, 'leaderboard.json'), JSON.stringify({ models: [{ model: 'x' }] }));
  mkdirSync(join(dir, 'not-results'));
});

describe('loadViewerData', () => {
  it('reports partial mismatches, malformed lines and missing parts, and keeps what it can', async () => {
    const d = await loadViewerData({
      data: hero.data,
      results: [join(dir, 'hero'), join(dir, 'not-results')],
      cases: compass.cases,
      compassResults: [join(dir, 'compass')],
    });
    const lines = d.problems.map((p) => `${p.area}: ${p.message}`);
    expect(lines).toContain('hero: no --track: method frames cannot be shown');
    expect(lines).toContainEqual(
      expect.stringMatching(/^hero: .*hero\/insertions\.jsonl:2: not valid JSON .*\(line skipped\)$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /\/hero: 1 of its 2 films \(7777_Elsewhere\) are not in the dataset given; they are not shown$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/not-results: no summary\.json/));
    expect(lines).toContainEqual(
      expect.stringMatching(/compass: 1 of its 2 cases \(zz-01\) are not in the case set given/),
    );
    expect(lines).toContain('compass: no --videos: case pages show no video');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^compass: .*compass\/response\.jsonl:3: keyframes\.0\.t_best_s: .*\(line skipped\)$/,
      ),
    );
    expect(d.hero!.results).toHaveLength(1);
    expect(d.hero!.results[0]!.insertions.get(TEST_FILMS[0]!.movie_id)).toHaveLength(1);
    expect(d.compass!.models).toEqual(['faithful']);
    expect(lines).toContainEqual(expect.stringMatching(/compass\/leaderboard\.json: .*\(not shown\)$/));
    expect(d.compass!.results[0]!.leaderboard).toBeUndefined();
  });

  it('starts with nothing at all and says what to give', async () => {
    const d = await loadViewerData({ results: [join(dir, 'hero')] });
    expect(d.hero).toBeUndefined();
    expect(d.problems.map((p) => p.message)).toEqual([
      'results folders were given without --data: nothing to place them in',
      'nothing to show: give --data (HeroFrame) and/or --cases (Compass)',
    ]);
  });

  it('a --data folder that does not exist is one problem, not a crash', async () => {
    const d = await loadViewerData({ data: join(dir, 'nope'), track: join(dir, 'nope-track') });
    expect(d.problems.map((p) => p.message)).toEqual([
      `--data ${join(dir, 'nope')}: missing`,
      `--track ${join(dir, 'nope-track')}: missing`,
      'no --results folder: chains are shown without any method',
    ]);
    expect(d.hero!.chains.size).toBe(0);
  });

  it('a 2 GB summary and a 2 GB insertion line are listed as problems, and the viewer still loads', async () => {
    const h = join(tempDir(), 'huge');
    mkdirSync(h);
    const sparse = (file: string, head: string) => {
      writeFileSync(file, head);
      const fd = openSync(file, 'r+');
      ftruncateSync(fd, 2 * 1024 ** 3);
      closeSync(fd);
    };
    sparse(join(h, 'summary.json'), '{');
    const ok = join(tempDir(), 'ok');
    mkdirSync(ok);
    writeFileSync(join(ok, 'summary.json'), JSON.stringify(summary));
    sparse(join(ok, 'insertions.jsonl'), `${JSON.stringify(insertion(TEST_FILMS[0]!.movie_id))}\n`);
    const d = await loadViewerData({ data: hero.data, track: hero.track, results: [h, ok] });
    const lines = d.problems.map((p) => p.message);
    expect(lines).toContainEqual(expect.stringContaining(`${join(h, 'summary.json')}: too large (2048 MiB`));
    expect(lines).toContainEqual(
      expect.stringContaining(`${join(ok, 'insertions.jsonl')}:2: line longer than the 64 MiB limit`),
    );
    expect(d.hero!.chains.size).toBe(2);
  });
});
