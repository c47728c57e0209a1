import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_OUTPUTS } from '../../src/cli/folder-files.js';
import { probe } from '../../src/media/probe.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { runCli } from '../support/cli.js';
import { COMPASS_EVALUATE_CONTRACTS, checkContracts } from '../support/contracts.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
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
  cases = oneCaseFile(p, 'ot-03', dir);
  for (const model of ['faithful', 'cut']) {
    mkdirSync(join(dir, 'videos', model), { recursive: true });
    for (const mode of ['minimal', 'segment_specific'])
      if (!(model === 'cut' && mode === 'segment_specific'))
        copyFileSync(
          join(p.videos, model, `ot-03__${mode}.mp4`),
          join(dir, 'videos', model, `ot-03__${mode}.mp4`),
        );
  }
});
afterAll(async () => {
  await emu?.close();
  await prose?.close();
});

const judge = (e: Emulator) => `openai:kfbench-emulator@${e.url}`;
/**
 * `compass evaluate` of these models with this emulator, into `out`, without an audio judge (audio
 * is judged by default when the videos carry sound tracks: test/cli/compass-rank-by.test.ts).
 */
const evaluate = (e: Emulator, out: string, models: string[], ...extra: string[]) =>
  runCli(evalArgs(e, out, models, ...extra));
const evalArgs = (e: Emulator, out: string, models: string[], ...extra: string[]) => [
  ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'videos'), '--model', ...models],
  ...['--judge', judge(e), '--out', out, '--no-judge-audio', ...extra],
];

describe('kfbench compass evaluate / report', () => {
  it('both axes, the leaderboard, every output file; a missing video is reported (exit 5); a re-run asks nothing', async () => {
    const out = join(dir, 'out');
    const args = evalArgs(emu, out, ['faithful', 'cut']);
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/missing: .*cut\/ot-03__segment_specific\.mp4/);
    expect(r.stdout).toMatch(/^faithful\s+0\.\d{3}/m);
    // evaluate segments with the judge by default, as published, and says so
    expect(r.stdout).toMatch(/segmenter judge/);
    // progress in every phase, each announced when it begins
    const phases = [
      /^scan: 4 videos to do$/m,
      /^checklists: 12 questions to do$/m,
      /^judge: 4 videos to do$/m,
    ].map((re) => r.stderr.search(re));
    expect(
      phases.every((i) => i >= 0),
      r.stderr,
    ).toBe(true);
    expect([...phases].sort((a, b) => a - b)).toEqual(phases);
    for (const f of [
      'checklists.jsonl',
      'evaluation.jsonl',
      'leaderboard.json',
      'response.jsonl',
      'summary.json',
      'run.json',
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
    // the folder holds what `compass evaluate --help` lists (src/cli/folder-files.ts), nothing else
    const listed = FOLDER_OUTPUTS['compass evaluate']!.files;
    expect(readdirSync(out).filter((f) => !listed.some((l) => l.name === f))).toEqual([]);
    for (const f of listed.filter((l) => l.when === undefined))
      expect(existsSync(join(out, f.name)), f.name).toBe(true);
    // every file round-trips through its one schema (the viewer and `compass report` parse with the same)
    expect(checkContracts(out, COMPASS_EVALUATE_CONTRACTS)).toEqual([
      'checklists.jsonl',
      'evaluation.jsonl',
      'leaderboard.json',
      'outputs.json',
      'response.jsonl',
      'run.json',
      'settings.json',
      'summary.json',
    ]);
    const lb = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    expect(lb.segmenter).toBe('judge');
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).segmenter).toBe('judge');
    expect(lb.models.map((m: { model: string }) => m.model)).toEqual(['faithful', 'cut']);
    const rows = readFileSync(join(out, 'evaluation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // the missing video is in the leaderboard with 0 on every metric, and counted
    expect(rows).toHaveLength(4);
    const gone = rows.find((v) => v.model === 'cut' && v.prompt_mode === 'segment_specific');
    expect(gone).toMatchObject({ status: 'missing', overall: { score: 0 } });
    expect(gone.quality.metrics.SVQ).toMatchObject({ status: 'scored', score: 0 });
    const cut = lb.models.find((m: { model: string }) => m.model === 'cut');
    expect(cut.coverage).toEqual({ present: 1, expected: 2 });
    expect(lb.models[0].coverage).toEqual({ present: 2, expected: 2 });
    const cutMinimal = rows.find((v) => v.model === 'cut' && v.prompt_mode === 'minimal');
    expect(cut.overall).toBeCloseTo(cutMinimal.overall.score / 2, 9);
    expect(r.stdout).toMatch(/^cut\s+.*\s1\/2\s/m);
    const calls = emu.log.length;
    const again = await runCli(args);
    expect(again.code).toBe(5);
    expect(emu.log.length).toBe(calls);
    expect(again.stdout).toMatch(/judge calls 0, from the cache \d+/);
    // after a complete run the dry run finds every planned call in the judge cache, and asks nothing
    const dry = await runCli([...args, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = Number(/^total: (\d+) calls/m.exec(dry.stdout)?.[1]);
    expect(planned).toBe(24); // 12 checklists, 3 segmentations, 3 grouped calls for each of 3 videos
    expect(dry.stdout).toContain(
      `calls needed: 0; already cached: ${planned} (judge cache ${join(out, 'judge-cache.sqlite')})`,
    );
    expect(emu.log.length).toBe(calls);
    expect(readFileSync(join(out, 'leaderboard.json'), 'utf8')).toBe(`${JSON.stringify(lb, null, 2)}\n`);

    for (const [format, re] of [
      ['text', /^faithful\s+/m],
      ['json', /"models": \[/],
      ['csv', /^table,factor,level,model,overall/],
      ['md', /^\| model \| Overall \| KF control \|/m],
      ['html', /^<!doctype html>.*<svg/s],
    ] as const) {
      const rep = await runCli(['compass', 'report', '--eval', out, '--format', format]);
      expect(rep.code, format).toBe(0);
      expect(rep.stdout, format).toMatch(re);
    }
    const bad = await runCli(['compass', 'report', '--eval', out, '--format', 'pdf']);
    expect(bad.code).toBe(2);

    // --missing skip: every model only on the videos all of them have (ot-03 minimal), nothing asked
    const skip = await runCli([...args, '--missing', 'skip']);
    expect(skip.code).toBe(5);
    expect(emu.log.length).toBe(calls);
    const lbSkip = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    expect(lbSkip.missing).toBe('skip');
    const minimal = (m: string) =>
      rows.find((v) => v.model === m && v.prompt_mode === 'minimal').overall.score;
    for (const m of lbSkip.models) {
      expect(m.overall).toBeCloseTo(minimal(m.model), 9);
      expect(m.coverage.expected).toBe(2);
    }
    expect(skip.stdout).toMatch(/only the videos every model has \(--missing skip\)/);
  });

  it('export-scores writes, by default, the prompt mode the human study judged (segment-specific, App. D), named in its header row; --prompt-mode both averages the two; compass align reads either', async () => {
    const out = join(dir, 'out');
    const jsonl = (f: string) =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const resp = jsonl(join(out, 'response.jsonl')).filter((x) => x.model === 'faithful');
    const evals = jsonl(join(out, 'evaluation.jsonl')).filter((x) => x.model === 'faithful');
    expect(resp).toHaveLength(2);
    const mode = (rows: { prompt_mode: string }[], m: string) =>
      rows.find((x) => x.prompt_mode === m)! as never;
    const file = join(dir, 'scores.jsonl');
    const r = await runCli(['compass', 'export-scores', '--results', out, '--out', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ scores \(1 cases × 2 models × \d+ dimensions[;)]/);
    expect(r.stdout).toMatch(/^prompt mode: segment_specific only: the prompt mode the human study judged/m);
    const [header, ...scores] = jsonl(file);
    expect(header).toMatchObject({
      header: 'kfbench compass export-scores',
      prompt_modes: ['segment_specific'],
    });
    expect(header.note).toContain('Annotators see the input keyframes and segment-specific prompt');
    const at = (rows: typeof scores, model: string, dim: string) =>
      rows.filter((s) => s.case_id === 'ot-03' && s.model === model && s.dimension === dim);
    const seg = mode(resp, 'segment_specific') as { groups: { keyframe_fidelity: number } };
    expect(at(scores, 'faithful', 'keyframe_fidelity')[0].score).toBe(seg.groups.keyframe_fidelity);
    expect(at(scores, 'faithful', 'overall')[0].score).toBe(
      (mode(evals, 'segment_specific') as { overall: { score: number } }).overall.score,
    );
    for (const s of scores) expect(typeof s.score).toBe('number');

    // both prompt modes: a case scores the mean over them, and the header says so
    const bothFile = join(dir, 'scores-both.jsonl');
    const both = await runCli([
      'compass',
      'export-scores',
      '--results',
      out,
      '--out',
      bothFile,
      '--prompt-mode',
      'both',
    ]);
    expect(both.code, both.stderr).toBe(0);
    const [bothHeader, ...bothScores] = jsonl(bothFile);
    expect(bothHeader.prompt_modes).toEqual(['minimal', 'segment_specific']);
    expect(at(bothScores, 'faithful', 'keyframe_fidelity')[0].score).toBeCloseTo(
      (resp[0].groups.keyframe_fidelity + resp[1].groups.keyframe_fidelity) / 2,
      12,
    );
    expect(at(bothScores, 'faithful', 'overall')[0].score).toBeCloseTo(
      (evals[0].overall.score + evals[1].overall.score) / 2,
      12,
    );
    expect(at(bothScores, 'faithful', 'ordering')).toHaveLength(1);
    expect(at(bothScores, 'cut', 'AMA')).toHaveLength(0); // not applicable (ot-03 asks for no audio): never a 0
    const badMode = await runCli([
      'compass',
      'export-scores',
      '--results',
      out,
      '--out',
      file,
      '--prompt-mode',
      'all',
    ]);
    expect(badMode.code).toBe(2);

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
      ...['--prompt-mode', 'minimal', '--dimensions', 'overall,temporal_organization', '--json'],
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

  it('--dry-run prints frames, images and estimated tokens per call and in total; asks nothing', async () => {
    const before = emu.log.length;
    const r = await evaluate(emu, join(dir, 'dry'), ['faithful'], '--dry-run');
    expect(r.code).toBe(0);
    // 8 fps over the whole video: every grouped call sends floor(8·duration) frames and the 3 keyframes
    const info = await probe(join(dir, 'videos', 'faithful', 'ot-03__minimal.mp4'));
    const n = Math.floor(info.duration_s * 8);
    const grouped = r.stdout.split('\n').filter((l) => /^faithful\/ot-03__\S+ \S+\s+grouped/.test(l));
    expect(grouped).toHaveLength(6);
    for (const l of grouped) expect(l).toMatch(new RegExp(`grouped\\s+${n}\\s+${n + 3}\\s+\\d+\\s*$`));
    // the judge segmenter (the default of evaluate): one call per video, 8 fps over the whole video
    const seg = r.stdout.split('\n').filter((l) => /^faithful\/ot-03__\S+ segment\s+segment/.test(l));
    expect(seg).toHaveLength(2);
    for (const l of seg) expect(l).toMatch(new RegExp(`segment\\s+${n}\\s+${n + 3}\\s+\\d+\\s*$`));
    expect(r.stdout).toMatch(
      new RegExp(
        `total: 20 calls \\(12 checklist, 2 segment, 6 grouped\\), ${8 * n} frames, ${8 * (n + 3) + 12 * 3} images, ≈ \\d+ prompt tokens; frames at 8 fps over the whole video`,
      ),
    );
    expect(emu.log.length).toBe(before);
    // nothing cached yet, and the dry run makes no judge cache
    expect(r.stdout).toMatch(/^calls needed: 20; already cached: 0 \(judge cache .*, not made yet\)$/m);
    expect(existsSync(join(dir, 'dry', 'judge-cache.sqlite'))).toBe(false);
    const capped = await evaluate(
      emu,
      join(dir, 'dry'),
      ['faithful'],
      ...['--dry-run', '--frame-budget', '4', '--segmenter', 'pixel'],
    );
    expect(capped.stdout).toMatch(
      /total: 18 calls \(12 checklist, 0 segment, 6 grouped\), 24 frames, .* at most 4 per video/,
    );
  });

  it('--dry-run plans the judge segmenter at --quality-fps and under --frame-budget, as the run sends them', async () => {
    const info = await probe(join(dir, 'videos', 'faithful', 'ot-03__minimal.mp4'));
    const segLines = (stdout: string) =>
      stdout.split('\n').filter((l) => /^faithful\/ot-03__\S+ segment\s+segment/.test(l));
    const slow = await evaluate(emu, join(dir, 'dry-fps'), ['faithful'], '--dry-run', '--quality-fps', '4');
    expect(slow.code, slow.stderr).toBe(0);
    const n = Math.floor(info.duration_s * 4);
    expect(n).not.toBe(Math.floor(info.duration_s * 8));
    expect(segLines(slow.stdout)).toHaveLength(2);
    for (const l of segLines(slow.stdout))
      expect(l).toMatch(new RegExp(`segment\\s+${n}\\s+${n + 3}\\s+\\d+\\s*$`));
    const capped = await evaluate(
      emu,
      join(dir, 'dry-fps'),
      ['faithful'],
      '--dry-run',
      '--frame-budget',
      '4',
    );
    expect(capped.code, capped.stderr).toBe(0);
    expect(segLines(capped.stdout)).toHaveLength(2);
    for (const l of segLines(capped.stdout)) expect(l).toMatch(/segment\s+4\s+7\s+\d+\s*$/);
  });

  it('compass score --segmenter judge: shots from the judge (pixel is the default), named in every report', async () => {
    const out = join(dir, 'seg');
    const args = [
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'videos'), '--model', 'faithful'],
      ...['--out', out],
    ];
    const pixel = await runCli(args);
    expect(pixel.code, pixel.stderr).toBe(0);
    expect(pixel.stdout).toMatch(/segmenter pixel/);
    const before = emu.log.length;
    const r = await runCli([...args, '--segmenter', 'judge', '--judge', judge(emu)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/segmenter judge/);
    expect(emu.log.length).toBe(before + 1); // one segmentation per distinct video (both modes hold the same one)
    const rows = readFileSync(join(out, 'response.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const row of rows) {
      expect(row.segmenter).toBe('judge');
      expect(row.shots).toHaveLength(1); // a one-take stays one shot
      expect(Object.values(row.judge_assignments)).toEqual([0, 0, 0]);
    }
    expect((await runCli([...args, '--segmenter', 'judge'])).code).toBe(2);
    expect((await runCli([...args, '--segmenter', 'mllm'])).code).toBe(2);
  });

  it('a judge that answers prose to everything: no crash, every quality metric unresolved, keyframe groups kept; the share is reported and exit 5 above --max-unresolved', async () => {
    const out = join(dir, 'prose');
    const r = await evaluate(prose, out, ['faithful']);
    // the outputs are written, and the run says why it is not a result
    expect(r.code, r.stderr).toBe(5);
    const v = JSON.parse(readFileSync(join(out, 'evaluation.jsonl'), 'utf8').split('\n')[0]!);
    expect(v.quality.metrics.SVQ.status).toBe('unresolved');
    expect(v.overall.missing).toContain('visual_quality');
    expect(v.overall.score).toBeGreaterThan(0.9);
    const lb = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    expect(lb.unresolved.share).toBe(1);
    expect(lb.unresolved.unresolved).toBe(lb.unresolved.answers);
    const n = lb.unresolved.answers;
    expect(n).toBeGreaterThan(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(
      `unresolved: ${n} of ${n} quality metrics judged (100.0 %), above the limit of 5.0 % (--max-unresolved)`,
    );
    expect(r.stderr).toContain(
      `100.0 % of the quality metrics judged are unresolved (${n} of ${n}), above --max-unresolved 5.0 %`,
    );
    // a limit of 100 % accepts it (from the cache: the same answers)
    const all = await evaluate(prose, out, ['faithful'], '--max-unresolved', '100');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain(`within the limit of 100.0 % (--max-unresolved)`);
    // compass report states it too
    const rep = await runCli(['compass', 'report', '--eval', out]);
    expect(rep.stdout).toContain(`unresolved: ${n} of ${n} quality metrics judged (100.0 %)`);
  });

  it('--max-calls 0 asks nothing: every video left for the next run (exit 5), the judge never called', async () => {
    const fresh = await startEmulator();
    try {
      const out = join(dir, 'no-calls');
      const r = await evaluate(fresh, out, ['faithful'], '--segmenter', 'pixel', '--max-calls', '0');
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toMatch(/2 video\(s\) not judged: the call budget ran out/);
      expect(r.stdout).toMatch(/judge calls 0, from the cache 0/);
      expect(fresh.log).toHaveLength(0);
    } finally {
      await fresh.close();
    }
  });

  it('--max-unresolved out of range is a usage error, before anything is written', async () => {
    const bad = await evaluate(emu, join(dir, 'bad-limit'), ['faithful'], '--max-unresolved', '101');
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toContain('--max-unresolved takes a percentage from 0 to 100');
    expect(existsSync(join(dir, 'bad-limit'))).toBe(false);
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
