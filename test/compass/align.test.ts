/** compass align on a hand-made set where every figure can be worked out on paper. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AutoScore, align, type Judgment, loadAlignInputs } from '../../src/compass/align.js';
import { krippendorffAlpha } from '../../src/stats/krippendorff.js';
import { spearmanExactP } from '../../src/stats/rank.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';

const scores: AutoScore[] = ['c1', 'c2', 'c3'].flatMap((case_id) =>
  [
    ['X', 0.9],
    ['Y', 0.5],
    ['Z', 0.1],
  ].map(([model, score]) => ({
    case_id,
    model: model as string,
    dimension: 'quality',
    score: score as number,
  })),
);

const item = (case_id: string, a: string, b: string, choices: ('A' | 'B' | 'Tie')[]): Judgment[] =>
  choices.map((choice, i) => ({
    case_id,
    model_a: a,
    model_b: b,
    dimension: 'quality',
    annotator: `h${i + 1}`,
    choice,
  }));

const votes: Judgment[] = [
  ...item('c1', 'X', 'Y', ['A', 'A', 'B']), // X by majority: agrees with 0.9 > 0.5
  ...item('c1', 'Z', 'Y', ['B', 'B', 'B']), // Y: agrees with 0.5 > 0.1
  ...item('c2', 'X', 'Z', ['A', 'B', 'Tie']), // one each way: excluded
  ...item('c2', 'X', 'Y', ['Tie', 'Tie', 'A']), // a tie majority: excluded
  ...item('c3', 'Y', 'X', ['A', 'A', 'A']), // Y: disagrees with 0.5 < 0.9
];

describe('compass align', () => {
  const r = align(votes, scores, { B: 500, seed: 1 });

  it('win rates count ties as halves', () => {
    expect(r.win_rates.quality!.X).toBeCloseTo(5.5 / 12, 12);
    expect(r.win_rates.quality!.Y).toBeCloseTo(8 / 12, 12);
    expect(r.win_rates.quality!.Z).toBeCloseTo(1.5 / 6, 12);
    for (const [m, [lo, hi]] of Object.entries(r.win_rates_ci.quality!)) {
      expect(lo).toBeLessThanOrEqual(r.win_rates.quality![m]! + 1e-12);
      expect(hi).toBeGreaterThanOrEqual(r.win_rates.quality![m]! - 1e-12);
    }
  });

  it('agreement over decisive majorities only, with coverage', () => {
    expect(r.agreement.quality).toEqual({ rate: 2 / 3, coverage: 3 / 5, n: 3, items: 5, unscored: 0 });
  });

  it('a decisive item without an automatic score for one of its models is left out and counted, not a disagreement', () => {
    const partial = scores.filter((s) => !(s.case_id === 'c3' && s.model === 'X'));
    const p = align(votes, partial, { B: 100, seed: 1 });
    expect(p.agreement.quality).toEqual({ rate: 1, coverage: 2 / 5, n: 2, items: 5, unscored: 1 });
  });

  it('model-level Spearman with an exact p for few models', () => {
    expect(r.spearman.quality!.rho).toBeCloseTo(0.5, 12);
    expect(r.spearman.quality!.p_exact).toBe(spearmanExactP([5.5 / 12, 8 / 12, 1.5 / 6], [0.9, 0.5, 0.1]));
    expect(r.spearman.quality!.p_asymptotic).toBeUndefined();
  });

  it("Krippendorff's α per pair codes votes by the model chosen, so the order shown does not matter", () => {
    // X|Y: units c1 (X, X, Y), c2 (tie, tie, X), c3 (Y, Y, Y); X = 1, Y = 2, tie = 0
    const direct = krippendorffAlpha(
      [
        [1, 0, 2],
        [1, 0, 2],
        [2, 1, 2],
      ],
      'nominal',
    ).alpha;
    expect(r.alpha['X|Y']).toBeCloseTo(direct, 12);
    const flipped = votes.map(
      (v) =>
        ({
          ...v,
          model_a: v.model_b,
          model_b: v.model_a,
          choice: v.choice === 'A' ? 'B' : v.choice === 'B' ? 'A' : 'Tie',
        }) as Judgment,
    );
    const r2 = align(flipped, scores, { B: 500, seed: 1 });
    expect(r2.alpha).toEqual(r.alpha);
    expect(r2.agreement).toEqual(r.agreement);
    expect(r2.win_rates).toEqual(r.win_rates);
  });

  it('bad input: unknown model, unknown dimension, unknown choice, fewer than two models — file:line, exit 3', async () => {
    const dir = tempDir('kfbench-align-');
    const w = (name: string, rows: unknown[]) => {
      const f = join(dir, name);
      writeFileSync(f, rows.map((x) => JSON.stringify(x)).join('\n'));
      return f;
    };
    const s = w('scores.jsonl', scores);
    await expect(
      loadAlignInputs(w('j1.jsonl', [votes[0], { ...votes[1], model_b: 'W' }]), s),
    ).rejects.toThrow(/j1\.jsonl:2: unknown model W/);
    await expect(loadAlignInputs(w('j2.jsonl', [{ ...votes[0], dimension: 'sound' }]), s)).rejects.toThrow(
      /j2\.jsonl:1: dimension sound has no automatic scores/,
    );
    const bad = await runCli([
      'compass',
      'align',
      '--judgments',
      w('j3.jsonl', [{ ...votes[0], choice: 'C' }]),
      '--scores',
      s,
    ]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/j3\.jsonl:1: choice/);
    const one = await runCli(['compass', 'align', '--judgments', w('j4.jsonl', []), '--scores', s]);
    expect(one.code).toBe(3);
    const ok = await runCli([
      'compass',
      'align',
      '--judgments',
      w('j5.jsonl', votes),
      '--scores',
      s,
      '--resamples',
      '200',
      '--json',
    ]);
    expect(ok.code).toBe(0);
    const j = JSON.parse(ok.stdout);
    expect(Object.keys(j)).toEqual(
      expect.arrayContaining(['win_rates', 'win_rates_ci', 'agreement', 'spearman', 'alpha']),
    );
  });
});
