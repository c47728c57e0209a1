/** hero analyze corpus / position on the mini set (its placeholder chains), recomputed by hand. */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusStats } from '../../src/hero/analyze/corpus.js';
import { humanAgreement, rubricSwap } from '../../src/hero/analyze/judge-agreement.js';
import { positionAnalysis } from '../../src/hero/analyze/position.js';
import { defaultLayout } from '../../src/hero/dataset/layout-map.js';
import type { BuildReport } from '../../src/hero/dataset/schemas.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { spearman } from '../../src/stats/rank.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { emulatorJudge } from '../support/emulator.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let p: MiniHeroPaths;
/** "hh:mm:ss.fff" (or seconds) → seconds, written out here rather than borrowed from the code under test. */
const seconds = (t: string | number) =>
  typeof t === 'number' ? t : t.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
const lines = (f: string) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

beforeAll(async () => {
  p = await sharedMiniHero();
});

describe('hero analyze', () => {
  it('corpus: counts, confident share and the still ranks, as the files say', async () => {
    const r = await corpusStats(p.data, defaultLayout());
    const films = lines(join(p.data, 'data', 'chains.jsonl'));
    const chains = films.flatMap((f) => f.chains);
    expect(r.films).toBe(lines(join(p.data, 'data', 'movies.jsonl')).length);
    expect(r.chains).toBe(chains.length);
    expect(r.pairs).toBe(chains.length * 15);
    const confident = chains
      .flatMap((c) => c.pairs)
      .filter((x: { status: string }) => x.status === 'confident').length;
    expect(r.confident_share).toBe(confident / r.pairs);
    expect(Object.values(r.still_rank).reduce((a, b) => a + b, 0)).toBe(chains.length);
    expect(r.still_replacements).toBeNull(); // placeholder chains: not built by hero build
    const copy = tempDir('kfbench-corpus-');
    cpSync(join(p.data, 'data'), join(copy, 'data'), { recursive: true });
    mkdirSync(join(copy, 'stats'));
    const report: BuildReport = {
      films: 2,
      chains: 4,
      pairs: 60,
      confident_share: 0.9,
      still_replacements: 3,
      still_floor_unmet: 0,
      ridge_used: 0,
      stability: { chains: 0, agreement: null, kendall_tau: null, measures: 'none sampled' },
    };
    writeFileSync(join(copy, 'stats', 'build_report.json'), JSON.stringify(report));
    expect((await corpusStats(copy, defaultLayout())).still_replacements).toBe(3);
    // a build report that is not one is bad input naming the file, not a silent null
    writeFileSync(join(copy, 'stats', 'build_report.json'), JSON.stringify({ still_replacements: 3 }));
    await expect(corpusStats(copy, defaultLayout())).rejects.toThrow(/build_report\.json: films: /);
  });

  it('position: normalised film time of every sampled chain image against its rank', async () => {
    const r = await positionAnalysis(p.data, defaultLayout());
    // by hand: a clip's start on the film timeline is the sum of the earlier clips' durations
    const clips = new Map<string, Map<string, number>>();
    const length = new Map<string, number>();
    for (const f of lines(join(p.data, 'data', 'clips.jsonl'))) {
      let at = 0;
      const m = new Map<string, number>();
      for (const c of f.clips) {
        m.set(c.clip_id, at);
        at += seconds(c.end) - seconds(c.start);
      }
      clips.set(f.movie_id, m);
      length.set(f.movie_id, at);
    }
    const ranks: number[] = [];
    const times: number[] = [];
    // the mini chains are in the release's shape: the still is the anchor, the order is by gamma,
    // a sampled image's id is `<clip id>_<n>` taken n / 25 s into the clip
    type Im = { image_id: string; gamma: number };
    for (const f of lines(join(p.data, 'data', 'chains.jsonl')))
      for (const c of f.chains as { anchor: string; images: Im[] }[]) {
        const order = [...c.images].sort((a, b) => b.gamma - a.gamma).map((i) => i.image_id);
        for (const im of c.images)
          if (im.image_id !== c.anchor) {
            const [, clip, n] = /^(.+)_(\d+)$/.exec(im.image_id)!;
            ranks.push(order.indexOf(im.image_id) + 1);
            times.push((clips.get(f.movie_id)!.get(clip!)! + Number(n) / 25) / length.get(f.movie_id)!);
          }
      }
    expect(r.images).toBe(ranks.length);
    expect(r.spearman.rho).toBeCloseTo(spearman(ranks, times), 6);
    for (const b of r.by_rank) {
      const ts = times.filter((_, i) => ranks[i] === b.rank);
      expect(b.n).toBe(ts.length);
      expect(b.mean_time).toBeCloseTo(ts.reduce((a, x) => a + x, 0) / ts.length, 6);
    }
    const cli = await runCli(['hero', 'analyze', 'position', '--data', p.data, '--json']);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout).images).toBe(r.images);
  });

  it('human and rubric-swap: a rubric the judge follows changes its answers, and the tests see it', async () => {
    const copy = tempDir('kfbench-human-');
    cpSync(p.data, copy, { recursive: true });
    const films = lines(join(copy, 'data', 'chains.jsonl'));
    // one film's rubric reverses the emulator's main preference
    const [f0, f1] = films.map((f) => f.movie_id as string) as [string, string];
    const pair0 = films[0].chains[0].pairs[0];
    writeFileSync(
      join(copy, 'data', 'rubrics.jsonl'),
      `${JSON.stringify({ movie_id: f0, criteria: [{ criterion_id: 'c1', as_the_judge_read_it: 'Prefer the blurrier image. Prefer the blurrier image. Prefer the less colourful image.', source_pair: [pair0.a, pair0.b], round: 1 }] })}\n${JSON.stringify({ movie_id: f1, criteria: [] })}\n`,
    );
    // made-up "human" choices: the chains' own winners
    const humans = films.flatMap((f) =>
      f.chains[0].pairs.slice(0, 10).map((x: { a: string; b: string; winner: string }) => ({
        movie_id: f.movie_id,
        a: x.a,
        b: x.b,
        human_winner: x.winner,
      })),
    );
    const pairsFile = join(copy, 'human.jsonl');
    writeFileSync(pairsFile, humans.map((h) => JSON.stringify(h)).join('\n'));
    const j = await emulatorJudge();
    try {
      const ctx = { root: copy, layout: defaultLayout(), judge: j.judge, encoder: new ImageEncoder() };
      const h = await humanAgreement(ctx, pairsFile);
      expect(h.without_rubric.n).toBe(20);
      expect(h.with_rubric.correct).not.toBe(h.without_rubric.correct); // film 0's rubric reverses answers
      expect(h.mcnemar.b + h.mcnemar.c).toBeGreaterThan(0);
      expect(h.mcnemar.b - h.mcnemar.c).toBe(h.without_rubric.correct - h.with_rubric.correct);
      const s = await rubricSwap(ctx, 'test');
      expect(s.swap).toEqual({ [f0]: f1, [f1]: f0 });
      // film 1 gains film 0's reversing rubric when swapped; film 0 loses it: the conditions differ
      expect(s.own.correct).not.toBe(s.swapped.correct);
      expect(s.p_own_vs_swapped.p).toBeLessThan(1);
    } finally {
      await j.close();
    }
    const bad = join(copy, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify(humans[0])}\n${JSON.stringify({ ...humans[0], a: 'nope' })}\n`);
    const r = await runCli([
      'hero',
      'analyze',
      'human',
      '--pairs',
      bad,
      '--data',
      copy,
      '--judge',
      'local:test/fixtures/judge/reader.json',
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/bad\.jsonl:2: unknown image nope/);
  });
});
