/** `kfbench compass …` end to end on the mini Compass set: outputs, exit codes, one-line errors. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { runCli } from '../support/cli.js';
import { COMPASS_SCORE_CONTRACTS, checkContracts } from '../support/contracts.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { media, tempDir } from '../support/paths.js';

let p: MiniCompassPaths;
let dir = '';
let subset = '';
const lines = () => readFileSync(p.cases, 'utf8').trim().split('\n');

/** ot-03 alone, images made absolute so the file can live anywhere. */
function caseLine(id: string): Record<string, unknown> {
  const c = JSON.parse(lines().find((l) => l.includes(`"case_id":"${id}"`))!);
  c.keyframes = c.keyframes.map((k: { image: string }) => ({ ...k, image: join(p.root, k.image) }));
  return c;
}

beforeAll(async () => {
  p = await sharedMiniCompass();
  dir = tempDir('kfbench-compass-cli-');
  subset = join(dir, 'cases.jsonl');
  writeFileSync(subset, `${JSON.stringify(caseLine('ot-03'))}\n`);
  // a model folder with one video missing
  for (const [model, files] of [
    ['faithful', ['ot-03__minimal.mp4', 'ot-03__segment_specific.mp4']],
    ['swapped', ['ot-03__minimal.mp4']],
  ] as const) {
    mkdirSync(join(dir, 'videos', model), { recursive: true });
    for (const f of files) copyFileSync(join(p.videos, model, f), join(dir, 'videos', model, f));
  }
});

describe('kfbench compass', () => {
  it('validate counts the cases', async () => {
    const r = await runCli(['compass', 'validate', '--cases', p.cases, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ cases: 4, by_structure: { multi_shot: 2, one_take: 2 } });
  });

  it('response prints the documented JSON', async () => {
    const swapped = [
      '--cases',
      p.cases,
      '--case-id',
      'ot-03',
      '--video',
      join(p.videos, 'swapped', 'ot-03__minimal.mp4'),
    ];
    const r = await runCli(['compass', 'response', ...swapped, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(
      expect.arrayContaining([
        'case_id',
        'embedder',
        'gamma',
        'metrics',
        'groups',
        'keyframes',
        'shots',
        'segmenter',
      ]),
    );
    expect(j).toMatchObject({ case_id: 'ot-03', embedder: 'builtin', gamma: 0.76 });
    expect(Object.keys(j.metrics).join(' ')).toBe(
      'presence fidelity ordering localization persistence uniqueness',
    );
    expect(Object.keys(j.keyframes[0])).toEqual(
      expect.arrayContaining([
        'kf_id',
        'matched',
        't_best_s',
        't_peak_s',
        'cos',
        'psnr_db',
        'ssim',
        'shot',
        'aligned_shot',
        'scores',
      ]),
    );
    expect(j.metrics.ordering).toBeCloseTo(2 / 3, 6);
    const g = await runCli(['compass', 'response', ...swapped, '--gamma', '0.999', '--json']);
    expect(JSON.parse(g.stdout).gamma).toBe(0.999);
    // issue 44 items 6 and 7: the other readings are flags (KFS on the highest-cosine frame; the hold
    // widened to frames within N dB of f*(k)), and a wrong value is a usage error
    const other = await runCli([
      'compass',
      'response',
      ...swapped,
      '--kfs-frame',
      'peak',
      '--hold-tolerance-db',
      '40',
      '--json',
    ]);
    expect(other.code, other.stderr).toBe(0);
    expect(JSON.parse(other.stdout).metrics.presence).toBe(j.metrics.presence);
    const bad = await runCli(['compass', 'response', ...swapped, '--kfs-frame', 'best']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--kfs-frame must be tie, peak, got "best"/);
    const tie = await runCli(['compass', 'response', ...swapped, '--kfs-tie', '2']);
    expect(tie.code).toBe(2);
    expect(tie.stderr).toMatch(/--kfs-tie got "2"/);
  });

  it('response prints labelled columns: a header row whose names carry the units, one row per keyframe; --json is the report', async () => {
    const args = [
      '--cases',
      p.cases,
      '--case-id',
      'ot-03',
      '--video',
      join(p.videos, 'missing', 'ot-03__minimal.mp4'), // kf02 never shown
    ];
    const [text, json] = [
      await runCli(['compass', 'response', ...args]),
      await runCli(['compass', 'response', ...args, '--json']),
    ];
    expect([text.code, json.code]).toEqual([0, 0]);
    const j = JSON.parse(json.stdout) as {
      metrics: Record<string, number>;
      keyframes: {
        kf_id: string;
        matched: boolean;
        t_best_s: number | null;
        t_peak_s: number;
        cos: number;
        psnr_db: number | null;
      }[];
    };
    const out = text.stdout.split('\n');
    expect(out).toContain('metric        score');
    expect(text.stdout).toMatch(/^ordering\s+\d\.\d{3}$/m);
    const h = out.findIndex((l) => /^keyframe\s+target_s/.test(l));
    const head = out[h]!;
    const names = head.split(/\s+/);
    expect(names).toEqual([
      'keyframe',
      'target_s',
      'found_s',
      'peak_s',
      'shot',
      'cos',
      'psnr_db',
      'ssim',
      'presence',
      'fidelity',
      'ordering',
      'localization',
      'persistence',
      'uniqueness',
    ]);
    expect(out[h + 1]).toMatch(/^-+( +-+){13}$/);
    // each row's cells sit under their header: read them by the header's column starts
    const starts = names.map((n) => head.indexOf(` ${n} `) + 1 || head.indexOf(n));
    const cell = (row: string, name: string) => {
      const i = names.indexOf(name);
      return row.slice(starts[i], starts[i + 1]).trim();
    };
    const targets = (caseLine('ot-03') as { keyframes: { t_target_s: number }[] }).keyframes;
    const rows = out.slice(h + 2, h + 2 + j.keyframes.length);
    expect(rows.map((r) => cell(r, 'keyframe'))).toEqual(j.keyframes.map((k) => k.kf_id));
    for (const [i, k] of j.keyframes.entries()) {
      expect(cell(rows[i]!, 'target_s')).toBe(targets[i]!.t_target_s.toFixed(3));
      expect(cell(rows[i]!, 'found_s')).toBe(k.matched ? k.t_best_s!.toFixed(3) : 'not found');
      expect(cell(rows[i]!, 'peak_s')).toBe(k.t_peak_s.toFixed(3));
      expect(cell(rows[i]!, 'cos')).toBe(k.cos.toFixed(3));
      expect(cell(rows[i]!, 'psnr_db')).toBe(k.psnr_db === null ? '—' : k.psnr_db.toFixed(2));
    }
    expect(j.keyframes.some((k) => k.matched) && j.keyframes.some((k) => !k.matched)).toBe(true);
    // the units, in one legend under the table
    expect(text.stdout).toMatch(/^seconds of the video: target_s .*found_s t\(k\).*peak_s .*f\*/m);
    expect(text.stdout).toMatch(/psnr_db: its PSNR in dB/);
  });

  it('a one-take video shorter than a target is scored: the keyframes it cannot reach are misses', async () => {
    const short = await runCli([
      'compass',
      'response',
      '--cases',
      p.cases,
      '--case-id',
      'ot-12',
      '--video',
      join(p.videos, 'faithful', 'ot-03__minimal.mp4'),
      '--json',
    ]);
    expect(short.code, short.stderr).toBe(0);
    const j = JSON.parse(short.stdout);
    const targets = (caseLine('ot-12') as { keyframes: { kf_id: string; t_target_s: number }[] }).keyframes;
    const past = targets.filter((k) => k.t_target_s > 4.5).map((k) => k.kf_id);
    expect(past.length).toBeGreaterThan(0);
    for (const k of j.keyframes)
      if (past.includes(k.kf_id))
        expect(k).toMatchObject({ matched: false, scores: { localization: 0, presence: 0 } });
  });

  it('bad input is one line naming the file, exit 3', async () => {
    const empty = await runCli([
      'compass',
      'response',
      '--cases',
      subset,
      '--video',
      media('zero-frames.mp4'),
    ]);
    expect(empty.code).toBe(3);
    expect(empty.stderr).toMatch(/zero-frames\.mp4/);

    const c = caseLine('ot-03') as { keyframes: { image: string; t_target_s: number }[] };
    c.keyframes[1]!.image = join(dir, 'gone.png');
    writeFileSync(join(dir, 'gone.jsonl'), JSON.stringify(c));
    const gone = await runCli(['compass', 'validate', '--cases', join(dir, 'gone.jsonl')]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/gone\.jsonl:1: case ot-03: keyframe kf02: image .*gone\.png does not exist/);

    const o = caseLine('ot-03') as { keyframes: { t_target_s: number }[] };
    o.keyframes[2]!.t_target_s = 1;
    writeFileSync(join(dir, 'order.jsonl'), JSON.stringify(o));
    const order = await runCli(['compass', 'validate', '--cases', join(dir, 'order.jsonl')]);
    expect(order.code).toBe(3);
    expect(order.stderr).toMatch(/order\.jsonl:1: case ot-03: keyframes out of order: kf03/);

    const usage = await runCli(['compass', 'response', '--video', media('shots.mp4')]);
    expect(usage.code).toBe(2);
  });

  it('own cases with 1 and 5 keyframes: validate accepts them with a warning naming them, score and evaluate group by the counts present', async () => {
    const d = join(dir, 'own-counts');
    const ot = caseLine('ot-03') as {
      case_id: string;
      keyframes: unknown[];
      prompts: Record<string, string>;
    };
    const ms = caseLine('ms-06') as { case_id: string; keyframes: unknown[] };
    const own = [
      { ...ot, case_id: 'one', keyframes: ot.keyframes.slice(1, 2) }, // kf02 alone, at 2.25 s
      { ...ms, case_id: 'five', keyframes: [ms.keyframes[0], ...ms.keyframes.slice(2)] }, // kf02 dropped
    ];
    const cases = join(d, 'cases.jsonl');
    mkdirSync(join(d, 'videos', 'faithful'), { recursive: true });
    writeFileSync(cases, own.map((c) => JSON.stringify(c)).join('\n'));
    for (const [id, from] of [
      ['one', 'ot-03'],
      ['five', 'ms-06'],
    ])
      for (const mode of ['minimal', 'segment_specific'])
        copyFileSync(
          join(p.videos, 'faithful', `${from}__${mode}.mp4`),
          join(d, 'videos', 'faithful', `${id}__${mode}.mp4`),
        );
    const v = await runCli(['compass', 'validate', '--cases', cases]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(/^2 cases, 6 keyframes: .*; keyframe counts 1×1, 5×1$/m);
    expect(v.stderr).toBe(
      "warning: 2 case(s) with a keyframe count outside the published set's 3, 6, 9, 12 (accepted; their leaderboard rows are grouped by their own count): one (1), five (5)\n",
    );
    expect(
      JSON.parse((await runCli(['compass', 'validate', '--cases', cases, '--json'])).stdout),
    ).toMatchObject({
      outside_published_counts: [
        { case_id: 'one', keyframes: 1 },
        { case_id: 'five', keyframes: 5 },
      ],
    });
    // the published set's own cases: no warning
    expect((await runCli(['compass', 'validate', '--cases', subset])).stderr).toBe('');

    const out = join(d, 'score');
    const r = await runCli([
      'compass',
      'score',
      '--cases',
      cases,
      '--videos',
      join(d, 'videos'),
      '--model',
      'faithful',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = readFileSync(join(out, 'response.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            case_id: string;
            n_keyframes: number;
            status: string;
            metrics: Record<string, number>;
          },
      );
    expect(rows.map((x) => `${x.case_id}/${x.n_keyframes}/${x.status}`).sort()).toEqual([
      'five/5/scored',
      'five/5/scored',
      'one/1/scored',
      'one/1/scored',
    ]);
    for (const x of rows) for (const m of Object.values(x.metrics)) expect(m).toBeGreaterThanOrEqual(0);
    // the faithful video shows every keyframe: presence 1 at both counts
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(Object.keys(summary.models.faithful.by_keyframes)).toEqual(['01', '05']);
    expect(summary.models.faithful.by_keyframes['01'].metrics.presence).toBe(1);
    expect(summary.models.faithful.by_keyframes['05'].metrics.presence).toBe(1);

    // the leaderboard of compass evaluate, by keyframe count: the two counts present, no others
    const emu = await startEmulator();
    try {
      const ev = join(d, 'evaluate');
      const e = await runCli([
        'compass',
        'evaluate',
        '--cases',
        cases,
        '--videos',
        join(d, 'videos'),
        '--model',
        'faithful',
        '--judge',
        `openai:kfbench-emulator@${emu.url}`,
        '--out',
        ev,
      ]);
      expect(e.code, e.stderr).toBe(0);
      const lb = JSON.parse(readFileSync(join(ev, 'leaderboard.json'), 'utf8'));
      expect(Object.keys(lb.by.keyframes)).toEqual(['01', '05']);
      const rep = await runCli(['compass', 'report', '--eval', ev]);
      expect(rep.code, rep.stderr).toBe(0);
      expect(rep.stdout.match(/^keyframes = \d+$/gm)).toEqual(['keyframes = 01', 'keyframes = 05']);
    } finally {
      await emu.close();
    }
  });

  it('score: per-video JSONL, a summary, a missing video reported with exit 5; re-scoring decodes nothing', async () => {
    const out = join(dir, 'out');
    const folder = [
      '--cases',
      subset,
      '--videos',
      join(dir, 'videos'),
      '--model',
      'faithful',
      'swapped',
      '--out',
      out,
    ];
    const args = ['compass', 'score', ...folder];
    const r = await runCli(args);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/missing: .*swapped\/ot-03__segment_specific\.mp4/);
    expect(r.stderr).toMatch(/^scan: 4 videos to do$/m);
    expect(r.stderr).toMatch(/^scan: finished 4\/4 videos in /m); // the missing one too: it scores 0
    // every file written round-trips through its one schema (the viewer reads them with the same)
    expect(checkContracts(out, COMPASS_SCORE_CONTRACTS)).toEqual([
      'outputs.json',
      'response.jsonl',
      'run.json',
      'settings.json',
      'summary.json',
    ]);
    // the scan settings that change the scan are recorded, stage 2's and the keyframe fit among them,
    // and the longest video scanned (it decides which videos fail)
    expect(JSON.parse(readFileSync(join(out, 'settings.json'), 'utf8')).settings.scan).toEqual({
      fpsCap: 24,
      pixelSize: 512,
      keyframeFit: 'crop',
      matchSize: 512,
      holdTolerance_db: null,
      holdMatch_db: 2,
      maxDuration_s: 120,
    });
    const readRows = () =>
      readFileSync(join(out, 'response.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const rows = readRows();
    // every model on the same cases: the missing video is a row scoring 0 on every metric
    expect(rows.map((x) => `${x.model}/${x.prompt_mode}/${x.status}`)).toEqual([
      'faithful/minimal/scored',
      'faithful/segment_specific/scored',
      'swapped/minimal/scored',
      'swapped/segment_specific/missing',
    ]);
    expect(Object.values(rows[3].metrics)).toEqual([0, 0, 0, 0, 0, 0]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.models.faithful.all.n).toBe(2);
    expect(summary.models.swapped.all.n).toBe(2);
    expect(summary.models.swapped.coverage).toEqual({ present: 1, expected: 2 });
    expect(summary.models.faithful.coverage).toEqual({ present: 2, expected: 2 });
    expect(summary.models.swapped.all.metrics.presence).toBeCloseTo(rows[2].metrics.presence / 2, 6);
    expect(r.stdout).toMatch(/^swapped\s+2\s+1\/2\s/m);
    expect(Object.keys(summary.models.swapped)).toEqual([
      'all',
      'coverage',
      'by_keyframes',
      'by_structure',
      'by_prompt_mode',
      'by_conditioning',
    ]);
    expect(summary.models.swapped.all.metrics.ordering).toBeLessThan(
      summary.models.faithful.all.metrics.ordering,
    );
    expect(r.stdout).toMatch(/faithful\s+2\s+2\/2\s+1\.000/);
    const run1 = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run1).toMatchObject({ scanned: 2, cached: 1 }); // the two faithful files are the same video

    // (the mini keyframes are reproduced at ≥ 50 dB, where the PSNR term is saturated: widen the span)
    const again = await runCli([...args, '--psnr-low', '20', '--psnr-high', '80']);
    expect(again.code).toBe(5);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ scanned: 0, cached: 3 });
    const rows2 = readRows();
    expect(rows2[0].metrics.fidelity).toBeLessThan(rows[0].metrics.fidelity); // higher anchors
    expect(rows2[0].metrics.ordering).toBe(rows[0].metrics.ordering);

    // --jobs 3: the three videos scanned at once, the same rows in the same order
    const jobsOut = join(dir, 'out-jobs');
    const par = await runCli([
      ...args.slice(0, -1),
      jobsOut,
      '--psnr-low',
      '20',
      '--psnr-high',
      '80',
      '--jobs',
      '3',
      '--no-cache',
    ]);
    expect(par.code).toBe(5);
    expect(readFileSync(join(jobsOut, 'response.jsonl'), 'utf8')).toBe(
      readFileSync(join(out, 'response.jsonl'), 'utf8'),
    );

    // --missing skip: every model only on the videos all of them have (here ot-03 minimal)
    const skip = await runCli([...args, '--missing', 'skip']);
    expect(skip.code).toBe(5);
    const ss = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(ss.missing).toBe('skip');
    expect(ss.models.swapped.all.n).toBe(1);
    expect(ss.models.faithful.all.n).toBe(1);
    expect(ss.models.swapped.coverage).toEqual({ present: 1, expected: 2 });
    expect(ss.models.swapped.all.metrics.presence).toBeCloseTo(rows[2].metrics.presence, 6);
    expect((await runCli([...args, '--missing', 'drop'])).code).toBe(2);

    // an undecodable video is counted and scores 0, like a missing one
    mkdirSync(join(dir, 'videos', 'broken'), { recursive: true });
    writeFileSync(join(dir, 'videos', 'broken', 'ot-03__minimal.mp4'), 'not a video');
    const b = await runCli([
      'compass',
      'score',
      ...['--cases', subset, '--videos', join(dir, 'videos'), '--model', 'broken'],
      ...['--modes', 'minimal', '--out', join(dir, 'broken-out'), '--no-cache'],
    ]);
    expect(b.code).toBe(5);
    expect(b.stderr).toMatch(/failed: .*broken\/ot-03__minimal\.mp4/);
    const br = JSON.parse(readFileSync(join(dir, 'broken-out', 'response.jsonl'), 'utf8'));
    expect(br).toMatchObject({ status: 'failed', metrics: { presence: 0, fidelity: 0, ordering: 0 } });
    expect(b.stdout).toMatch(/^broken\s+1\s+0\/1\s/m);

    const s = await runCli(['compass', 'sensitivity', ...folder, '--json']);
    expect(s.code).toBe(5);
    const sj = JSON.parse(s.stdout);
    expect(sj.settings).toHaveLength(125);
    expect(sj.max_delta_mean_kfs).toBeGreaterThan(0);
    expect(sj.min_spearman_rho).toBeLessThanOrEqual(1);
    expect(existsSync(join(out, 'sensitivity.json'))).toBe(true);
  });

  it('grid and prompts render a case', async () => {
    const out = join(dir, 'grid.png');
    const g = await runCli([
      'compass',
      'grid',
      '--cases',
      subset,
      '--out',
      out,
      '--cell-width',
      '64',
      '--json',
    ]);
    expect(g.code).toBe(0);
    expect(JSON.parse(g.stdout)).toMatchObject({ keyframes: 3, width: 132, height: 76 }); // 2 × 2 cells of 64 × 36, 4 px apart;
    const pr = await runCli(['compass', 'prompts', '--cases', p.cases, '--case-id', 'ms-06', '--json']);
    const j = JSON.parse(pr.stdout);
    expect(j.map((x: { mode: string }) => x.mode)).toEqual(['minimal', 'segment_specific']);
    expect(j[1].template).toBe('compass-gen-segment_specific-multi_shot');
    expect(j[1].text).toMatch(/keyframe 6 \(kf06\): shot 4, representative/);
    expect(j[0].text).toMatch(/4 shots/);
  });

  it('mini refuses a folder it did not make', async () => {
    const foreign = join(dir, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    const r = await runCli(['compass', 'mini', '--out', foreign]);
    expect(r.code).toBe(3);
    expect(readFileSync(join(foreign, 'notes.txt'), 'utf8')).toBe('mine');
  });
});
