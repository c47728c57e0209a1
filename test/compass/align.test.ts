/** compass align on a hand-made set where every figure can be worked out on paper. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { align, loadAlignInputs } from '../../src/compass/align/align.js';
import { autoMean, caseMultiplicity } from '../../src/compass/align/spearman.js';
import type { AutoScore, Judgment } from '../../src/compass/schemas/align.js';
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
    expect(r.agreement.quality).toMatchObject({ rate: 2 / 3, coverage: 3 / 5, n: 3, items: 5, unscored: 0 });
  });

  it('a decisive item without an automatic score for one of its models is left out and counted, not a disagreement', () => {
    const partial = scores.filter((s) => !(s.case_id === 'c3' && s.model === 'X'));
    const p = align(votes, partial, { B: 100, seed: 1 });
    expect(p.agreement.quality).toMatchObject({ rate: 1, coverage: 2 / 5, n: 2, items: 5, unscored: 1 });
  });

  it('agreement has a case-clustered bootstrap interval', () => {
    // decisive items: c1 (2, both agree), c3 (1, disagrees); c2 has none. Replicates draw 3 cases:
    // every rate in {0, 1/3 … 1} is possible, and with 500 seeded replicates the 2.5 % and 97.5 %
    // quantiles are the extremes 0 (only c3/c2 drawn) and 1 (only c1/c2 drawn).
    expect(r.agreement.quality!.ci).toEqual([0, 1]);
    // all decisive items agreeing: the interval is the point
    const all = align(votes.slice(0, 6), scores, { B: 200, seed: 3 });
    expect(all.agreement.quality).toMatchObject({ rate: 1, ci: [1, 1] });
    // seeded: the same seed gives the same interval
    expect(align(votes, scores, { B: 500, seed: 1 }).agreement).toEqual(r.agreement);
  });

  it('the overall human score is the mean of the dimension-level win rates', () => {
    const sound = votes.map((v) => ({
      ...v,
      dimension: 'sound',
      choice: v.choice === 'A' ? 'B' : v.choice === 'B' ? 'A' : 'Tie',
    })) as Judgment[];
    const s2 = [...scores, ...scores.map((x) => ({ ...x, dimension: 'sound' }))];
    const two = align([...votes, ...sound], s2, { B: 100, seed: 1 });
    // in "sound" every vote is reversed: X wins 6.5 of 12, Y 4 of 12, Z 4.5 of 6
    expect(two.win_rates.sound!.X).toBeCloseTo(6.5 / 12, 12);
    expect(two.overall_human.X).toBeCloseTo((5.5 / 12 + 6.5 / 12) / 2, 12);
    expect(two.overall_human.Y).toBeCloseTo((8 / 12 + 4 / 12) / 2, 12);
    expect(two.overall_human.Z).toBeCloseTo((1.5 / 6 + 4.5 / 6) / 2, 12);
    expect(r.overall_human.Y).toBeCloseTo(8 / 12, 12);
  });

  it('a resampled case enters the automatic means as many times as it was drawn', () => {
    const sc: AutoScore[] = [
      { case_id: 'c1', model: 'X', dimension: 'q', score: 1 },
      { case_id: 'c2', model: 'X', dimension: 'q', score: 0 },
    ];
    expect(autoMean(sc, 'X', 'q')).toBe(0.5);
    // c1 drawn twice, c2 once: (1 + 1 + 0) / 3, not (1 + 0) / 2
    const all = [{ case_id: 'c1' }, { case_id: 'c1' }, { case_id: 'c2' }];
    const sample = [...all.slice(0, 2), ...all.slice(0, 2), all[2]!];
    const mult = caseMultiplicity(sample, all);
    expect([...mult]).toEqual([
      ['c1', 2],
      ['c2', 1],
    ]);
    expect(autoMean(sc, 'X', 'q', mult)).toBeCloseTo(2 / 3, 12);
  });

  it('model-level Spearman with an exact p for few models', () => {
    expect(r.spearman.quality!.rho).toBeCloseTo(0.5, 12);
    expect(r.spearman.quality!.p_exact).toBe(spearmanExactP([5.5 / 12, 8 / 12, 1.5 / 6], [0.9, 0.5, 0.1]));
    expect(r.spearman.quality!.p_asymptotic).toBeUndefined();
  });

  it('ρ and its interval use the same cases: scores of cases nobody judged are dropped and counted', () => {
    // two judged cases where X beats Y by human and automatic score alike; three unjudged cases
    // whose automatic scores are reversed (and large enough to flip the means over all cases)
    const judged = [
      ...item('c1', 'X', 'Y', ['A', 'A', 'A']),
      ...item('c2', 'X', 'Z', ['A', 'A', 'A']),
      ...item('c1', 'Y', 'Z', ['A', 'A', 'A']),
    ];
    const sc: AutoScore[] = [
      ...['c1', 'c2'].flatMap((case_id) =>
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
      ),
      ...['u1', 'u2', 'u3'].flatMap((case_id) =>
        [
          ['X', 0],
          ['Y', 5],
          ['Z', 10],
        ].map(([model, score]) => ({
          case_id,
          model: model as string,
          dimension: 'quality',
          score: score as number,
        })),
      ),
    ];
    const a = align(judged, sc, { B: 300, seed: 2 });
    expect(a.spearman.quality).toMatchObject({
      rho: 1,
      ci: [1, 1],
      cases: 2,
      dropped_unjudged: 3,
      missing_scores: 0,
    });
    // the same as with the unjudged cases removed from the scores file
    const without = align(judged, sc.slice(0, 6), { B: 300, seed: 2 });
    expect(without.spearman.quality).toMatchObject({ rho: 1, ci: [1, 1], dropped_unjudged: 0 });
  });

  it("Krippendorff's α is summarised across the model pairs: mean, min, max", () => {
    const a = Object.values(r.alpha).filter((x): x is number => x !== null);
    expect(a.length).toBeGreaterThanOrEqual(2);
    expect(r.alpha_summary).toEqual({
      mean: a.reduce((s, x) => s + x, 0) / a.length,
      min: Math.min(...a),
      max: Math.max(...a),
      pairs: a.length,
    });
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
    expect(r2.alpha_summary).toEqual(r.alpha_summary);
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
      expect.arrayContaining([
        'win_rates',
        'win_rates_ci',
        'overall_human',
        'agreement',
        'spearman',
        'alpha',
        'alpha_summary',
      ]),
    );
    const text = await runCli(['compass', 'align', '--judgments', w('j5.jsonl', votes), '--scores', s]);
    expect(text.stdout).toMatch(/agreement 0\.667 \(95 % CI 0\.000–1\.000\) over 3 decisive items/);
    expect(text.stdout).toMatch(/^ {2}Y: 0\.667$/m);
    expect(text.stdout).toMatch(/Krippendorff's α \(nominal\) across \d model pairs: mean -?\d\.\d{3}, min/);
  });
});
