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
    expect((await corpusStats(copy, defaultLayout(), { imageProperties: false })).still_replacements).toBe(3);
    // a build report that is not one is bad input naming the file, not a silent null
    writeFileSync(join(copy, 'stats', 'build_report.json'), JSON.stringify({ still_replacements: 3 }));
    await expect(corpusStats(copy, defaultLayout(), { imageProperties: false })).rejects.toThrow(
      /build_report\.json: films: /,
    );
  });

  it('position: normalised film time of every sampled chain image against its rank', async () => {
    const r = await positionAnalysis(p.data, defaultLayout(), 'timeline');
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
    const cli = await runCli([
      'hero',
      'analyze',
      'position',
      '--data',
      p.data,
      '--normalise',
      'timeline',
      '--json',
    ]);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(JSON.parse(JSON.stringify(r)));
  });

  it("position by the film's runtime (the card's 0.545): film time over the TMDB runtime, else the last clip's end", async () => {
    const r = await positionAnalysis(p.data, defaultLayout());
    expect(r.normalise).toBe('runtime');
    const movies = new Map(lines(join(p.data, 'data', 'movies.jsonl')).map((m) => [m.movie_id, m]));
    const starts = new Map<string, number>();
    const runtime = new Map<string, number>();
    let tmdb = 0;
    for (const f of lines(join(p.data, 'data', 'clips.jsonl'))) {
      for (const c of f.clips) starts.set(c.clip_id, seconds(c.start));
      const lastEnd = Math.max(...f.clips.map((c: { end: string }) => seconds(c.end)));
      const minutes = movies.get(f.movie_id)?.tmdb?.runtime as number | undefined;
      if (minutes !== undefined && minutes * 60 >= lastEnd) tmdb++;
      runtime.set(f.movie_id, minutes !== undefined ? Math.max(minutes * 60, lastEnd) : lastEnd);
    }
    expect(tmdb).toBeGreaterThan(0);
    // the films counted are those with chains
    const chained = lines(join(p.data, 'data', 'chains.jsonl')).map((f) => f.movie_id as string);
    const inChains = chained.filter((id) => movies.get(id)?.tmdb).length;
    expect(r.runtime_from).toEqual({ tmdb: inChains, last_clip: chained.length - inChains });
    const ranks: number[] = [];
    const times: number[] = [];
    type Im = { image_id: string; gamma: number };
    for (const f of lines(join(p.data, 'data', 'chains.jsonl')))
      for (const c of f.chains as { anchor: string; images: Im[] }[]) {
        const order = [...c.images].sort((a, b) => b.gamma - a.gamma).map((i) => i.image_id);
        for (const im of c.images)
          if (im.image_id !== c.anchor) {
            const [, clip, n] = /^(.+)_(\d+)$/.exec(im.image_id)!;
            ranks.push(order.indexOf(im.image_id) + 1);
            times.push((starts.get(clip!)! + Number(n) / 25) / runtime.get(f.movie_id)!);
          }
      }
    expect(r.images).toBe(ranks.length);
    expect(r.mean_time).toBeCloseTo(times.reduce((a, x) => a + x, 0) / times.length, 9);
    expect(r.spearman.rho).toBeCloseTo(spearman(ranks, times), 9);
    for (const t of times) expect(t).toBeGreaterThan(0);
    for (const t of times) expect(t).toBeLessThan(1);
    const cli = await runCli(['hero', 'analyze', 'position', '--data', p.data]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(
      `mean normalised time ${r.mean_time!.toFixed(3)} (film time over the runtime (TMDB for ${inChains} films, the last clip's end for ${chained.length - inChains}); the card: 0.545)`,
    );
    const bad = await runCli(['hero', 'analyze', 'position', '--data', p.data, '--normalise', 'runtim']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--normalise must be runtime, timeline, got "runtim" (did you mean "runtime"?)',
    );
    // a film whose line has no TMDB record: the end of its last clip is its runtime
    const copy = tempDir('kfbench-position-');
    cpSync(join(p.data, 'data'), join(copy, 'data'), { recursive: true });
    const bare = [...movies.values()].map((m) => (m.movie_id === chained[0] ? { ...m, tmdb: undefined } : m));
    writeFileSync(join(copy, 'data', 'movies.jsonl'), `${bare.map((m) => JSON.stringify(m)).join('\n')}\n`);
    const r2 = await positionAnalysis(copy, defaultLayout());
    expect(r2.runtime_from).toEqual({ tmdb: inChains - 1, last_clip: chained.length - inChains + 1 });
    // that film's frames sit later in a film that ends at its last clip
    expect(r2.mean_time!).toBeGreaterThan(r.mean_time!);
  });

  it('corpus: years, runtimes and genres from the TMDB records, rubric sizes, and image properties against rank', async () => {
    const r = await corpusStats(p.data, defaultLayout());
    const movies = lines(join(p.data, 'data', 'movies.jsonl'));
    const years = movies.map((m) => m.year as number).sort((a, b) => a - b);
    expect(r.film_facts.years?.min).toBe(years[0]);
    expect(r.film_facts.years?.max).toBe(years.at(-1));
    // numpy's median: the middle one, or the mean of the middle two
    const mid = (years.length - 1) / 2;
    expect(r.film_facts.years?.median).toBe((years[Math.floor(mid)]! + years[Math.ceil(mid)]!) / 2);
    expect(Object.values(r.film_facts.by_decade).reduce((a, b) => a + b, 0)).toBe(movies.length);
    const withTmdb = movies.filter((m) => m.tmdb);
    expect(r.film_facts.runtime_min?.films).toBe(withTmdb.length);
    expect(r.film_facts.films_with_genres).toBe(withTmdb.length);
    const drama = withTmdb.filter((m) =>
      m.tmdb.genres.some((g: { name: string }) => g.name === 'Drama'),
    ).length;
    expect(r.film_facts.genres[0]).toEqual({ name: 'Drama', films: drama });
    const films = lines(join(p.data, 'data', 'chains.jsonl'));
    expect(r.chains_per_film?.max).toBe(Math.max(...films.map((f) => f.chains.length)));
    const rubrics = lines(join(p.data, 'data', 'rubrics.jsonl'));
    expect(Object.values(r.criteria_histogram).reduce((a, b) => a + b, 0)).toBe(rubrics.length);
    // image properties: every (chain, image) pair, each distinct image decoded once
    const ip = r.image_properties!;
    const pairs = films
      .flatMap((f) => f.chains)
      .reduce((a: number, c: { images: unknown[] }) => a + c.images.length, 0);
    expect(ip.pairs).toBe(pairs);
    expect(ip.images).toBe(r.images);
    expect(ip.correlations.map((c) => c.property)).toEqual([
      'brightness',
      'contrast',
      'sharpness',
      'colourfulness',
      'centredness',
    ]);
    for (const c of ip.correlations) {
      expect(c.rho === null || (c.rho >= -1 && c.rho <= 1)).toBe(true);
      expect(c.mean_top).toBeGreaterThanOrEqual(0);
    }
    const cli = await runCli([
      'hero',
      'analyze',
      'corpus',
      '--data',
      p.data,
      '--no-image-properties',
      '--json',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const j = JSON.parse(cli.stdout);
    expect(j.image_properties).toBeNull();
    expect(j.film_facts).toEqual(r.film_facts);
  });

  it('image properties against rank, by hand on a two-chain root whose top images are the brighter', async () => {
    const { imagePropertyCorrelations } = await import('../../src/hero/analyze/image-properties.js');
    const root = tempDir('kfbench-props-');
    const sharp = (await import('sharp')).default;
    const ids = ['a', 'b', 'c'];
    mkdirSync(join(root, 'images', 'f1'), { recursive: true });
    // a brighter image sits higher in both chains: ρ(brightness, rank) = −1
    for (const [i, id] of ids.entries())
      await sharp({
        create: {
          width: 64,
          height: 48,
          channels: 3,
          background: { r: 200 - 60 * i, g: 200 - 60 * i, b: 200 - 60 * i },
        },
      })
        .png()
        .toFile(join(root, 'images', 'f1', `${id}.jpg`));
    const chain = { order: ids } as never;
    const r = await imagePropertyCorrelations(root, [{ movie_id: 'f1', chains: [chain, chain] } as never]);
    expect(r.pairs).toBe(6);
    expect(r.images).toBe(3);
    const b = r.correlations.find((c) => c.property === 'brightness')!;
    expect(b.rho).toBeCloseTo(-1, 12);
    expect(b.mean_top).toBeCloseTo(((0.299 + 0.587 + 0.114) * 200) / 255, 6);
    // flat images: no contrast anywhere, ρ undefined rather than made up
    expect(r.correlations.find((c) => c.property === 'contrast')!.rho).toBeNull();
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
