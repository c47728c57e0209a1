import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heroHtml } from '../../src/report/hero.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { checkContracts, HERO_CONTRACTS } from '../support/contracts.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
let dir: string;
let spec: string;
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator();
  spec = `openai:kfbench-emulator@${emu.url}`;
  dir = tempDir();
  for (const m of ['sharpest', 'uniform'])
    expect(
      (
        await runCli([
          'hero',
          'select',
          '--method',
          m,
          '--data',
          mini.data,
          '--track',
          mini.track,
          '--out',
          join(dir, `${m}.jsonl`),
          '--k',
          '2',
        ])
      ).code,
    ).toBe(0);
});
afterAll(async () => emu.close());

const args = (out: string, cache: string, extra: string[] = []) => [
  'hero',
  'evaluate',
  '--selections',
  join(dir, 'sharpest.jsonl'),
  join(dir, 'uniform.jsonl'),
  '--data',
  mini.data,
  '--track',
  mini.track,
  '--judge',
  spec,
  '--cache',
  cache,
  '--out',
  out,
  '--bootstrap',
  '200',
  ...extra,
];

describe('hero evaluate against the emulator over HTTP', () => {
  it('writes the documented summary under the published listwise protocol by default, deterministically; a re-run makes zero calls', async () => {
    const cache = join(dir, 'c1.sqlite');
    const out1 = join(tempDir(), 'o');
    const r = await runCli(args(out1, cache, ['--include-stills']));
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(join(out1, 'summary.json'), 'utf8'));
    expect(s).toMatchObject({
      reader: 'openai:kfbench-emulator',
      protocol: 'listwise',
      both_orders: false,
      disagreement_rule: null,
      questions_per_insertion: 1,
      disagreement: { checks: 0, disagreed: 0, rate: null },
    });
    expect(s.methods.map((m: { method: string }) => m.method).sort()).toEqual([
      'sharpest',
      'stills',
      'uniform',
    ]);
    for (const m of s.methods) {
      expect(Object.keys(m).sort()).toEqual([
        'S',
        'S_at_k',
        'beat_still_rate',
        'ci',
        'films',
        'insertions',
        'method',
        'reader',
        'top1_rate',
        'unresolved',
      ]);
      expect(m.S).toBeGreaterThanOrEqual(0);
      expect(m.S).toBeLessThanOrEqual(1);
      expect(m.ci.S[0]).toBeLessThanOrEqual(m.S);
      expect(m.ci.S[1]).toBeGreaterThanOrEqual(m.S);
      expect(m.films).toBe(2);
    }
    const sharp = s.methods.find((m: { method: string }) => m.method === 'sharpest');
    expect(sharp.insertions).toBe(2 * 2 * 2); // 2 films × 2 frames × 2 chains
    const run1 = JSON.parse(readFileSync(join(out1, 'run.json'), 'utf8'));
    expect(run1.calls).toBeGreaterThan(0);
    // every JSON output round-trips through its one schema (the viewer reads them with the same)
    expect(checkContracts(out1, HERO_CONTRACTS)).toEqual([
      'insertions.jsonl',
      'outputs.json',
      'run.json',
      'settings.json',
      'summary.json',
    ]);
    const out2 = join(tempDir(), 'o');
    const again = await runCli(args(out2, cache, ['--include-stills']));
    expect(again.code).toBe(0);
    expect(readFileSync(join(out2, 'summary.json'), 'utf8')).toBe(
      readFileSync(join(out1, 'summary.json'), 'utf8'),
    );
    expect(readFileSync(join(out2, 'per_film.csv'), 'utf8')).toBe(
      readFileSync(join(out1, 'per_film.csv'), 'utf8'),
    );
    expect(JSON.parse(readFileSync(join(out2, 'run.json'), 'utf8')).calls).toBe(0);
    // progress on stderr (not a terminal: plain lines): the plan, then the end; the re-run's come from the cache
    expect(r.stderr).toMatch(/^evaluate: \d+ insertions to do \(listwise, openai:kfbench-emulator\)$/m);
    expect(r.stderr).toMatch(/^evaluate: finished (\d+)\/\1 insertions in /m);
    expect(again.stderr).toMatch(/^evaluate: finished (\d+)\/\1 insertions in .*\(\1 cached\)$/m);
    const lines = readFileSync(join(out1, 'insertions.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBe(
      sharp.insertions * 2 + s.methods.find((m: { method: string }) => m.method === 'stills').insertions,
    );
    expect(s.questions).toBe(lines.length);
    // each insertion keeps the one positional answer behind its position
    for (const l of lines) {
      const r = JSON.parse(l);
      expect(r.questions).toBe(1);
      expect(r.answers).toEqual([r.position]);
      expect(r.verdicts).toEqual([expect.objectContaining({ position: r.position, order: 'best-first' })]);
    }
    expect(r.stdout).toMatch(/protocol listwise, 1\.00 questions per insertion, disagreement not measured/);
    expect(readFileSync(join(out1, 'report.html'), 'utf8')).not.toMatch(/https?:\/\//);
  });

  it('the stills row scores every publicity still of the film, the one the still floor deleted too (--stills all, the default); --stills surviving only those in a chain', async () => {
    const film = TEST_FILMS[0]!.movie_id;
    const chains = JSON.parse(
      readFileSync(join(mini.data, 'data', 'chains.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .find((l) => l.includes(`"${film}"`))!,
    ).chains as { anchor: string }[];
    // the mini set is in the release's shape: a chain's still is its `anchor`
    const inChains = new Set(chains.map((c) => c.anchor));
    const deleted = readdirSync(join(mini.stills, film))
      .map((n) => n.replace(/\.jpg$/, ''))
      .filter((id) => !inChains.has(id));
    expect(deleted.length).toBeGreaterThan(0); // the film has a still that is in no chain
    const cache = join(dir, 'stills.sqlite');
    const run = async (extra: string[]) => {
      const out = join(tempDir(), 'o');
      const r = await runCli(args(out, cache, ['--include-stills', '--movies', film, ...extra]));
      expect(r.code, r.stderr).toBe(0);
      const rows = readFileSync(join(out, 'insertions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((x: { method: string }) => x.method === 'stills');
      return { rows, s: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) };
    };
    const all = await run(['--stills-dir', mini.stills]);
    const scored = new Set(all.rows.map((x: { frame: string }) => x.frame));
    for (const id of deleted) expect(scored).toContain(id);
    // each deleted still goes into every chain of the film (it is in none)
    expect(all.rows.filter((x: { frame: string }) => deleted.includes(x.frame))).toHaveLength(
      deleted.length * chains.length,
    );
    expect(all.s.warnings.join(' ')).not.toMatch(/stills row/);
    const surviving = await run(['--stills', 'surviving', '--stills-dir', mini.stills]);
    expect(
      surviving.rows.map((x: { frame: string }) => x.frame).filter((f: string) => deleted.includes(f)),
    ).toEqual([]);
    expect(surviving.rows.length).toBe(all.rows.length - deleted.length * chains.length);
    // all without the stills folder: only the surviving ones can be scored, and the summary says so
    const noDir = await run([]);
    expect(noDir.rows.length).toBe(surviving.rows.length);
    expect(noDir.s.warnings.join(' ')).toMatch(/stills row scores only the stills that survived/);
    const bad = await runCli(args(join(tempDir(), 'o'), cache, ['--include-stills', '--stills', 'some']));
    expect(bad.code).toBe(2);
  });

  it('--dry-run spends nothing; --max-calls stops with exit 5 and a second run resumes from the cache', async () => {
    const cache = join(dir, 'c2.sqlite');
    const before = emu.log.length;
    const pw = ['--protocol', 'pairwise'];
    const dry = await runCli(args(join(tempDir(), 'o'), cache, [...pw, '--dry-run', '--json']));
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ insertions: 16, questions: 16 * 12, cached: 0 });
    expect(emu.log.length).toBe(before);
    const partial = await runCli(
      args(join(tempDir(), 'o'), cache, [...pw, '--max-calls', '30', '--concurrency', '1']),
    );
    expect(partial.code).toBe(5);
    expect(partial.stderr).toMatch(/stopped at --max-calls/);
    const dry2 = JSON.parse(
      (await runCli(args(join(tempDir(), 'o'), cache, [...pw, '--dry-run', '--json']))).stdout,
    );
    expect(dry2.cached).toBeGreaterThan(0);
    const out = join(tempDir(), 'o');
    const rest = await runCli(args(out, cache, pw));
    expect(rest.code, rest.stderr).toBe(0);
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    // pairwise: 12 questions per insertion; each comparison's two placements are a consistency check
    expect(s).toMatchObject({ protocol: 'pairwise', questions: 16 * 12, questions_per_insertion: 12 });
    expect(s.disagreement.checks).toBe(16 * 6);
    const rows = readFileSync(join(out, 'insertions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(s.disagreement.disagreed).toBe(rows.reduce((a, r) => a + r.unresolved, 0));
    // each insertion keeps the verdicts behind its position: under pairwise, one per chain image,
    // and the frame won exactly `position` of them, each confidently
    for (const r of rows) {
      expect(r.verdicts).toHaveLength(r.chain_length);
      const won = r.verdicts.filter(
        (v: { winner: string; status: string }) => v.winner === 'frame' && v.status === 'confident',
      );
      expect(won).toHaveLength(r.position);
      for (const v of r.verdicts) expect(v.reasons).toHaveLength(2);
    }
  });

  it('--both-orders asks again with the chain reversed, records both answers and the disagreement rate, and scores a disagreement by --disagreement', async () => {
    // a reader with a strong position bias (the emulator favours images shown earlier)
    const biased = await startEmulator({ positionBias: 0.08 });
    const unbiased = await startEmulator({ positionBias: 0 });
    try {
      // the biased runs share a cache: each asks only the questions the previous ones did not
      const biasedCache = join(tempDir(), 'biased.sqlite');
      const run = async (url: string, extra: string[]) => {
        const out = join(tempDir(), 'o');
        const r = await runCli([
          ...args(out, url === biased.url ? biasedCache : join(tempDir(), 'c.sqlite'), extra).map((a) =>
            a === spec ? `openai:kfbench-emulator@${url}` : a,
          ),
        ]);
        expect(r.code, r.stderr).toBe(0);
        const rows = readFileSync(join(out, 'insertions.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        return { s: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')), rows, stdout: r.stdout };
      };
      const dry = await runCli(
        args(join(tempDir(), 'o'), biasedCache, ['--both-orders', '--dry-run', '--json']),
      );
      expect(JSON.parse(dry.stdout)).toMatchObject({ insertions: 16, questions: 32, cached: 0 });
      const single = await run(biased.url, []);
      const both = await run(biased.url, ['--both-orders']);
      const mean = await run(biased.url, ['--both-orders', '--disagreement', 'mean']);
      expect(both.s).toMatchObject({
        protocol: 'listwise',
        both_orders: true,
        disagreement_rule: 'error',
        questions: 2 * both.rows.length,
        questions_per_insertion: 2,
      });
      expect(mean.s.disagreement_rule).toBe('mean');
      let disagreed = 0;
      for (const [i, r] of both.rows.entries()) {
        expect(r.answers).toHaveLength(2);
        // the first answer is the single question's; a disagreement keeps only what both agree on
        expect(r.answers[0]).toBe(single.rows[i].position);
        expect(r.position).toBe(Math.min(...r.answers));
        expect(mean.rows[i].position).toBe((r.answers[0] + r.answers[1]) / 2);
        expect(r.verdicts.map((v: { order: string }) => v.order)).toEqual(['best-first', 'worst-first']);
        if (r.answers[0] !== r.answers[1]) disagreed++;
      }
      expect(both.s.disagreement).toEqual({
        checks: both.rows.length,
        disagreed,
        rate: disagreed / both.rows.length,
      });
      expect(disagreed).toBeGreaterThan(0); // the bias is caught
      expect(both.stdout).toMatch(
        /listwise in both orders \(disagreement scored as error\), 2\.00 questions per insertion, disagreement \d/,
      );
      for (const m of both.s.methods) {
        const m1 = single.s.methods.find((x: { method: string }) => x.method === m.method);
        const mm = mean.s.methods.find((x: { method: string }) => x.method === m.method);
        expect(m.S).toBeLessThanOrEqual(mm.S);
        expect(m1.S).toBeGreaterThanOrEqual(0);
      }
      // without a position bias the two orders agree
      const clean = await run(unbiased.url, ['--both-orders']);
      expect(clean.s.disagreement.rate).toBe(0);
      // --both-orders is a listwise flag
      const bad = await runCli(
        args(join(tempDir(), 'o'), join(tempDir(), 'c.sqlite'), ['--protocol', 'binary', '--both-orders']),
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--both-orders applies to --protocol listwise/);
    } finally {
      await biased.close();
      await unbiased.close();
    }
  });

  it('bad selections fail before any judge call, naming the file and line', async () => {
    const bad = join(tempDir(), 'bad.jsonl');
    writeFileSync(
      bad,
      `${JSON.stringify({ movie_id: TEST_FILMS[0]!.movie_id, frames: [{ rank: 1, frame_idx: 99999 }] })}\n`,
    );
    const before = emu.log.length;
    const r = await runCli([
      'hero',
      'evaluate',
      '--selections',
      bad,
      '--data',
      mini.data,
      '--track',
      mini.track,
      '--judge',
      spec,
      '--missing',
      'zero',
      '--out',
      join(tempDir(), 'o'),
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/bad\.jsonl: line 1: frame_idx 99999 is outside/);
    expect(emu.log.length).toBe(before);
    const missing = await runCli([
      'hero',
      'evaluate',
      '--selections',
      join(dir, 'sharpest.jsonl'),
      '--data',
      mini.data,
      '--track',
      join(tempDir(), 'no-track'),
      '--judge',
      spec,
      '--out',
      join(tempDir(), 'o'),
    ]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/track frame \d+ of .* is missing/);
  });

  it('--rescore-official scores the official selections with this reader and warns about the published reader', async () => {
    const data = join(tempDir(), 'heroframe');
    cpSync(mini.data, data, { recursive: true });
    const selections = readFileSync(join(dir, 'uniform.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    writeFileSync(
      join(data, 'eval', 'baselines.jsonl'),
      `${JSON.stringify({ method: 'uniform', reader: 'Qwen3.6-27B', S: 0.55, S_at_k: { 1: 0.56, 5: 0.55 }, top1_rate: 0.1, beat_still_rate: 0.3, per_film: [], selections })}\n`,
    );
    const out = join(tempDir(), 'o');
    const r = await runCli([
      'hero',
      'evaluate',
      '--selections',
      join(dir, 'sharpest.jsonl'),
      '--data',
      data,
      '--track',
      mini.track,
      '--judge',
      spec,
      '--rescore-official',
      '--out',
      out,
      '--bootstrap',
      '200',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.methods.map((m: { method: string }) => m.method).sort()).toEqual([
      'sharpest',
      'uniform (rescored)',
    ]);
    expect(s.methods.find((m: { method: string }) => m.method === 'uniform (rescored)').reader).toBe(
      'openai:kfbench-emulator',
    );
    expect(s.official).toEqual([
      expect.objectContaining({ method: 'uniform', reader: 'Qwen3.6-27B', S: 0.55, official: true }),
    ]);
    expect(s.warnings.join(' ')).toMatch(
      /official row uniform was scored by Qwen3\.6-27B, not openai:kfbench-emulator/,
    );
    // it was rescored: the warning points at the rescored row, not at the flag already given
    expect(s.warnings.join(' ')).not.toContain('use --rescore-official');
    expect(s.warnings.join(' ')).toContain('compare the "(rescored)" row');
  });

  it('the HTML report escapes what it renders', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const html = heroHtml(
      {
        reader: evil,
        protocol: 'listwise',
        both_orders: true,
        disagreement_rule: evil,
        questions_per_insertion: 2,
        disagreement: { checks: 1, disagreed: 1, rate: 1 },
        methods: [
          {
            method: evil,
            reader: evil,
            S: 0.5,
            S_at_k: { 1: 0.5, 5: 0.5 },
            top1_rate: 0,
            beat_still_rate: 0,
            ci: { S: [0.4, 0.6] },
            films: 1,
            insertions: 1,
            unresolved: 0,
          },
        ],
        official: [],
        warnings: [evil],
        paired: [],
      },
      [{ method: evil, movie_id: evil, dataUrl: 'data:image/jpeg;base64,AAAA' }],
    );
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
