/**
 * Issue 55 item 8: ids from the data that are Object.prototype names. Two Compass cases named
 * `constructor` and `__proto__`, two models named `toString` and `valueOf`, through every
 * id-keyed output: `compass score` (per-video rows, summary), `compass evaluate` (evaluation,
 * leaderboard, report), `compass export-scores` and `compass align`. Each is keyed and counted like
 * any other id: nothing fails a schema, nothing vanishes.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { runCli } from '../support/cli.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

const CASES: Record<string, string> = { 'ot-03': 'constructor', 'ms-06': 'hasOwnProperty' };
const MODELS: Record<string, string> = { faithful: 'toString', swapped: 'valueOf' };
const MODES = ['minimal', 'segment_specific'];

let p: MiniCompassPaths;
let emu: Emulator;
let dir = '';
let cases = '';

const jsonl = (f: string) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

beforeAll(async () => {
  p = await sharedMiniCompass();
  emu = await startEmulator();
  dir = tempDir('kfbench-compass-ids-');
  const lines = readFileSync(p.cases, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((c) => c.case_id in CASES)
    .map((c) => ({
      ...c,
      case_id: CASES[c.case_id],
      keyframes: c.keyframes.map((k: { image: string }) => ({ ...k, image: join(p.root, k.image) })),
    }));
  cases = join(dir, 'cases.jsonl');
  writeFileSync(cases, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  for (const [from, model] of Object.entries(MODELS)) {
    mkdirSync(join(dir, 'videos', model), { recursive: true });
    for (const [c, id] of Object.entries(CASES))
      for (const mode of MODES)
        copyFileSync(
          join(p.videos, from, `${c}__${mode}.mp4`),
          join(dir, 'videos', model, `${id}__${mode}.mp4`),
        );
  }
});
afterAll(async () => {
  await emu?.close();
});

const ids = Object.values(CASES).sort();
const models = Object.values(MODELS).sort();

describe('Compass ids that are Object.prototype names', () => {
  it('score, evaluate, report, export-scores and align key and count them like any other id', async () => {
    const score = await runCli([
      ...['compass', 'score', '--cases', cases, '--videos', join(dir, 'videos'), '--model', ...models],
      ...['--out', join(dir, 'score')],
    ]);
    expect(score.code, score.stderr).toBe(0);
    const rows = jsonl(join(dir, 'score', 'response.jsonl'));
    expect(rows).toHaveLength(ids.length * models.length * MODES.length);
    expect([...new Set(rows.map((r) => r.case_id))].sort()).toEqual(ids);

    const out = join(dir, 'eval');
    const ev = await runCli([
      ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'videos'), '--model', ...models],
      ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--out', out, '--no-judge-audio'],
    ]);
    expect(ev.code, ev.stderr).toBe(0);
    const evals = jsonl(join(out, 'evaluation.jsonl'));
    expect(evals).toHaveLength(ids.length * models.length * MODES.length);
    const board = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    const text = JSON.stringify(board);
    for (const m of models) expect(text).toContain(`"${m}"`);
    // the faithful model, whatever its name, leads
    expect(ev.stdout.split('\n').find((l) => /^(toString|valueOf)\s/.test(l))).toMatch(/^toString\s/);

    for (const format of ['md', 'json', 'csv', 'html']) {
      const rep = await runCli(['compass', 'report', '--eval', out, '--format', format]);
      expect(rep.code, `${format}: ${rep.stderr}`).toBe(0);
      for (const m of models) expect(rep.stdout, format).toContain(m);
    }

    const file = join(dir, 'scores.jsonl');
    const ex = await runCli(['compass', 'export-scores', '--results', out, '--out', file, '--json']);
    expect(ex.code, ex.stderr).toBe(0);
    const [, ...scores] = jsonl(file);
    for (const id of ids) expect(scores.some((s) => s.case_id === id)).toBe(true);
    for (const m of models) expect(scores.some((s) => s.model === m)).toBe(true);

    const judgments = join(dir, 'judgments.jsonl');
    writeFileSync(
      judgments,
      `${ids
        .flatMap((case_id) =>
          ['A', 'A', 'B'].map((choice, i) =>
            JSON.stringify({
              case_id,
              model_a: 'toString',
              model_b: 'valueOf',
              dimension: 'overall',
              annotator: `h${i}`,
              choice,
            }),
          ),
        )
        .join('\n')}\n`,
    );
    const a = await runCli(['compass', 'align', '--judgments', judgments, '--scores', file, '--json']);
    expect(a.code, a.stderr).toBe(0);
    const win = JSON.parse(a.stdout).win_rates.overall;
    expect(Object.getOwnPropertyDescriptor(win, 'toString')?.value).toBeCloseTo(2 / 3, 12);
    expect(Object.getOwnPropertyDescriptor(win, 'valueOf')?.value).toBeCloseTo(1 / 3, 12);
  });

  it('a case id that cannot be a file name (`__proto__` starts with "_") is refused naming the line and the rule', async () => {
    const line = readFileSync(cases, 'utf8').trim().split('\n')[0]!;
    const file = join(dir, 'proto.jsonl');
    writeFileSync(file, `${line.replace(/"case_id":"[^"]*"/, '"case_id":"__proto__"')}\n`);
    const r = await runCli(['compass', 'validate', '--cases', file]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${file}:1: case_id: must start with a letter or digit`);
  });
});
