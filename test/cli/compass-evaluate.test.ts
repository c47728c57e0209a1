/** `kfbench compass evaluate` and `compass report` end to end, against the emulator over HTTP. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/dev/emulator/server.js';
import type { MiniCompassPaths } from '../../src/dev/mini-compass/build.js';
import { runCli } from '../support/cli.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

let p: MiniCompassPaths;
let emu: Emulator;
let prose: Emulator;
let dir = '';
let cases = '';

beforeAll(async () => {
  p = await sharedMiniCompass();
  emu = await startEmulator();
  prose = await startEmulator({ faults: { rate: 1, kinds: ['prose'] } });
  dir = tempDir('kfbench-compass-eval-');
  const line = readFileSync(p.cases, 'utf8')
    .split('\n')
    .find((l) => l.includes('"case_id":"ot-03"'))!;
  const c = JSON.parse(line);
  c.keyframes = c.keyframes.map((k: { image: string }) => ({ ...k, image: join(p.root, k.image) }));
  cases = join(dir, 'cases.jsonl');
  writeFileSync(cases, `${JSON.stringify(c)}\n`);
  for (const model of ['faithful', 'cut']) {
    mkdirSync(join(dir, 'videos', model), { recursive: true });
    for (const mode of ['minimal', 'segment_specific'])
      if (!(model === 'cut' && mode === 'segment_specific'))
        copyFileSync(
          join(p.videos, model, `ot-03__${mode}.mp4`),
          join(dir, 'videos', model, `ot-03__${mode}.mp4`),
        );
  }
}, 300_000);
afterAll(async () => {
  await emu?.close();
  await prose?.close();
});

const judge = (e: Emulator) => `openai:kfbench-emulator@${e.url}`;
/** `compass evaluate` of these models with this emulator, into `out`. */
const evaluate = (e: Emulator, out: string, models: string[], ...extra: string[]) =>
  runCli(evalArgs(e, out, models, ...extra));
const evalArgs = (e: Emulator, out: string, models: string[], ...extra: string[]) => [
  ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'videos'), '--model', ...models],
  ...['--judge', judge(e), '--out', out, ...extra],
];

describe('kfbench compass evaluate / report', () => {
  it('both axes, the leaderboard, every output file; a missing video is reported (exit 5); a re-run asks nothing', async () => {
    const out = join(dir, 'out');
    const args = evalArgs(emu, out, ['faithful', 'cut']);
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/missing: .*cut\/ot-03__segment_specific\.mp4/);
    expect(r.stdout).toMatch(/^faithful\s+0\.\d{3}/m);
    for (const f of [
      'checklists.jsonl',
      'evaluation.jsonl',
      'leaderboard.json',
      'response.jsonl',
      'summary.json',
      'run.json',
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
    const lb = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    expect(lb.models.map((m: { model: string }) => m.model)).toEqual(['faithful', 'cut']);
    const rows = readFileSync(join(out, 'evaluation.jsonl'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(3);
    const calls = emu.log.length;
    const again = await runCli(args);
    expect(again.code).toBe(5);
    expect(emu.log.length).toBe(calls);
    expect(again.stdout).toMatch(/judge calls 0, from the cache \d+/);
    expect(readFileSync(join(out, 'leaderboard.json'), 'utf8')).toBe(`${JSON.stringify(lb, null, 2)}\n`);

    for (const [format, re] of [
      ['text', /^faithful\s+/m],
      ['json', /"models": \[/],
      ['csv', /^factor,level,model,overall/],
      ['md', /^\| model \| Overall \|/m],
      ['html', /^<!doctype html>.*<svg/s],
    ] as const) {
      const rep = await runCli(['compass', 'report', '--eval', out, '--format', format]);
      expect(rep.code, format).toBe(0);
      expect(rep.stdout, format).toMatch(re);
    }
    const bad = await runCli(['compass', 'report', '--eval', out, '--format', 'pdf']);
    expect(bad.code).toBe(2);
  });

  it('export-scores writes per-case means over prompt modes that compass align reads; unmeasured values are left out', async () => {
    const out = join(dir, 'out');
    const jsonl = (f: string) =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const file = join(dir, 'scores.jsonl');
    const r = await runCli(['compass', 'export-scores', '--results', out, '--out', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^\d+ scores \(1 cases × 2 models × \d+ dimensions; \d+ not measured, left out\) → /,
    );
    const scores = jsonl(file);
    const at = (model: string, dim: string) =>
      scores.filter((s) => s.case_id === 'ot-03' && s.model === model && s.dimension === dim);
    const resp = jsonl(join(out, 'response.jsonl')).filter((x) => x.model === 'faithful');
    const evals = jsonl(join(out, 'evaluation.jsonl')).filter((x) => x.model === 'faithful');
    expect(resp).toHaveLength(2);
    expect(at('faithful', 'keyframe_fidelity')[0].score).toBeCloseTo(
      (resp[0].groups.keyframe_fidelity + resp[1].groups.keyframe_fidelity) / 2,
      12,
    );
    expect(at('faithful', 'overall')[0].score).toBeCloseTo(
      (evals[0].overall.score + evals[1].overall.score) / 2,
      12,
    );
    expect(at('faithful', 'ordering')).toHaveLength(1);
    expect(at('cut', 'AMA')).toHaveLength(0); // not applicable to the minimal prompt cut has: never a 0
    for (const s of scores) expect(typeof s.score).toBe('number');

    const judgments = join(dir, 'judgments.jsonl');
    writeFileSync(
      judgments,
      ['A', 'A', 'B']
        .map((choice, i) =>
          JSON.stringify({
            case_id: 'ot-03',
            model_a: 'faithful',
            model_b: 'cut',
            dimension: 'overall',
            annotator: `h${i}`,
            choice,
          }),
        )
        .join('\n'),
    );
    const a = await runCli(['compass', 'align', '--judgments', judgments, '--scores', file, '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout).win_rates.overall.faithful).toBeCloseTo(2 / 3, 12);

    const some = await runCli([
      ...['compass', 'export-scores', '--results', out, '--out', join(dir, 'min.jsonl')],
      ...['--modes', 'minimal', '--dimensions', 'overall,temporal_organization', '--json'],
    ]);
    expect(some.code, some.stderr).toBe(0);
    expect(JSON.parse(some.stdout)).toMatchObject({
      scores: 4,
      dimensions: ['overall', 'temporal_organization'],
    });
    const bad = await runCli([
      'compass',
      'export-scores',
      '--results',
      out,
      '--out',
      file,
      '--dimensions',
      'beauty',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--dimensions: beauty not in /);
    const none = await runCli(['compass', 'export-scores', '--results', join(dir, 'nowhere'), '--out', file]);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/nowhere\/response\.jsonl: missing/);
  });

  it('--dry-run counts and asks nothing', async () => {
    const before = emu.log.length;
    const r = await evaluate(emu, join(dir, 'dry'), ['faithful'], '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/12 checklist questions and at most 6 grouped-judge questions/);
    expect(emu.log.length).toBe(before);
  });

  it('a judge that answers prose to everything: no crash, every quality metric unresolved, keyframe groups kept', async () => {
    const out = join(dir, 'prose');
    const r = await evaluate(prose, out, ['faithful']);
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(readFileSync(join(out, 'evaluation.jsonl'), 'utf8').split('\n')[0]!);
    expect(v.quality.metrics.SVQ.status).toBe('unresolved');
    expect(v.overall.missing).toContain('visual_quality');
    expect(v.overall.score).toBeGreaterThan(0.9);
  });

  it('a case without prompts is bad input naming the line', async () => {
    const c = JSON.parse(readFileSync(cases, 'utf8'));
    delete c.prompts;
    writeFileSync(join(dir, 'noprompt.jsonl'), JSON.stringify(c));
    const r = await runCli([
      'compass',
      'evaluate',
      '--cases',
      join(dir, 'noprompt.jsonl'),
      '--videos',
      join(dir, 'videos'),
      '--model',
      'faithful',
      '--judge',
      judge(emu),
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/noprompt\.jsonl:1: prompts:/);
  });
});
