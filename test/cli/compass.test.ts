/** `kfbench compass …` end to end on the mini Compass set: outputs, exit codes, one-line errors. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MiniCompassPaths } from '../../src/dev/mini-compass/build.js';
import { runCli } from '../support/cli.js';
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
}, 300_000);

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
      expect.arrayContaining(['case_id', 'embedder', 'gamma', 'metrics', 'groups', 'keyframes', 'shots']),
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
        'scores',
      ]),
    );
    expect(j.metrics.ordering).toBeCloseTo(2 / 3, 6);
    const g = await runCli(['compass', 'response', ...swapped, '--gamma', '0.999', '--json']);
    expect(JSON.parse(g.stdout).gamma).toBe(0.999);
  });

  it('bad input is one line naming the file, exit 3', async () => {
    const short = await runCli([
      'compass',
      'response',
      '--cases',
      p.cases,
      '--case-id',
      'ot-12',
      '--video',
      join(p.videos, 'faithful', 'ot-03__minimal.mp4'),
    ]);
    expect(short.code).toBe(3);
    expect(short.stderr.trim().split('\n')).toHaveLength(1);
    expect(short.stderr).toMatch(
      /ot-03__minimal\.mp4: lasts 4\.500 s, shorter than case ot-12's last target/,
    );

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
    const readRows = () =>
      readFileSync(join(out, 'response.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const rows = readRows();
    expect(rows.map((x) => `${x.model}/${x.prompt_mode}`)).toEqual([
      'faithful/minimal',
      'faithful/segment_specific',
      'swapped/minimal',
    ]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.models.faithful.all.n).toBe(2);
    expect(Object.keys(summary.models.swapped)).toEqual([
      'all',
      'by_keyframes',
      'by_structure',
      'by_prompt_mode',
      'by_conditioning',
    ]);
    expect(summary.models.swapped.all.metrics.ordering).toBeLessThan(
      summary.models.faithful.all.metrics.ordering,
    );
    expect(r.stdout).toMatch(/faithful\s+2\s+1\.000/);
    const run1 = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run1).toMatchObject({ scanned: 2, cached: 1 }); // the two faithful files are the same video

    const again = await runCli([...args, '--psnr-low', '20']);
    expect(again.code).toBe(5);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ scanned: 0, cached: 3 });
    const rows2 = readRows();
    expect(rows2[0].metrics.fidelity).toBeLessThan(rows[0].metrics.fidelity); // a higher lower anchor
    expect(rows2[0].metrics.ordering).toBe(rows[0].metrics.ordering);

    // --jobs 3: the three videos scanned at once, the same rows in the same order
    const jobsOut = join(dir, 'out-jobs');
    const par = await runCli([
      ...args.slice(0, -1),
      jobsOut,
      '--psnr-low',
      '20',
      '--jobs',
      '3',
      '--no-cache',
    ]);
    expect(par.code).toBe(5);
    expect(readFileSync(join(jobsOut, 'response.jsonl'), 'utf8')).toBe(
      readFileSync(join(out, 'response.jsonl'), 'utf8'),
    );

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
