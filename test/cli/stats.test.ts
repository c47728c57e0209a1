import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';
import { STATS, statsReferences } from '../support/stats-references.js';

const refs = statsReferences();

describe('kfbench stats (JSON shapes)', () => {
  it('bt', async () => {
    const r = await runCli(['stats', 'bt', join(STATS, 'bt-four-mixed.jsonl'), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j).sort()).toEqual(['mle_exists', 'ridge', 'strengths']);
    expect(j.mle_exists).toBe(true);
    expect(j.strengths.B).toBeCloseTo(refs.bt[0]!.strengths_scipy.B!, 6);
  });
  it('rank', async () => {
    const j = JSON.parse(
      (await runCli(['stats', 'rank', join(STATS, 'rank-n5-ties.json'), '--json'])).stdout,
    );
    const ref = refs.rank.find((r) => r.name === 'n5-ties')!;
    expect(j).toMatchObject({ n: 5 });
    expect(j.spearman).toBeCloseTo(ref.spearman, 9);
    expect(j.p_exact).toBeCloseTo(ref.p_exact!, 12);
    expect(j.p_asymptotic).toBeCloseTo(ref.p_asymptotic, 9);
  });
  it('kripp', async () => {
    const j = JSON.parse(
      (await runCli(['stats', 'kripp', join(STATS, 'kripp-2011.json'), '--level', 'interval', '--json']))
        .stdout,
    );
    expect(j.alpha.toFixed(3)).toBe('0.849');
    expect(j.units_used).toBe(11);
  });
  it('eer', async () => {
    const j = JSON.parse(
      (await runCli(['stats', 'eer', join(STATS, 'eer-ties.jsonl'), '--at', '0.8', '--json'])).stdout,
    );
    const ref = refs.eer.find((e) => e.name === 'ties-at-threshold')!;
    expect(j.eer).toBeCloseTo(ref.eer, 9);
    expect(j.at).toEqual(ref.at);
  });
});

describe('kfbench stats bad input: one line naming the file and line, exit 3', () => {
  const dir = tempDir();
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  it.each([
    [['bt', file('empty.jsonl', '')], /empty\.jsonl: no comparisons/],
    [
      ['bt', file('badscore.jsonl', '{"a":"x","b":"y","score":1}\n{"a":"x","b":"y","score":0.7}\n')],
      /badscore\.jsonl:2: score: score must be 0, 0\.5 or 1/,
    ],
    [
      ['bt', file('badjson.jsonl', '{"a":"x","b":"y","score":1}\n{"a":"x",\n')],
      /badjson\.jsonl:2: not valid JSON/,
    ],
    [['bt', file('self.jsonl', '{"a":"x","b":"x","score":1}\n')], /self\.jsonl:1: a and b are the same item/],
    [['bt', file('nan.jsonl', '{"a":"x","b":"y","score":NaN}\n')], /nan\.jsonl:1: not valid JSON/],
    [['rank', file('one.json', '{"x":[1],"y":[2]}')], /one\.json: needs at least 2 pairs/],
    [['rank', file('len.json', '{"x":[1,2,3],"y":[2,1]}')], /len\.json: x has 3 values but y has 2/],
    [['rank', file('str.json', '{"x":[1,"NaN"],"y":[2,1]}')], /str\.json: x\.1: /],
    [['kripp', file('ragged.json', '[[1,2,3],[1,2]]')], /ragged\.json: row 2 has 2 units but row 1 has 3/],
    [
      ['eer', file('label.jsonl', '{"score":0.5,"label":1}\n{"score":0.4,"label":2}\n')],
      /label\.jsonl:2: label: label must be 0 or 1/,
    ],
    [
      ['eer', file('onlypos.jsonl', '{"score":0.5,"label":1}\n')],
      /onlypos\.jsonl: needs at least one line with label 1 and one with label 0/,
    ],
    [['bt', join(dir, 'absent.jsonl')], /absent\.jsonl: no such file/],
  ])('%j', async (args, msg) => {
    const r = await runCli(['stats', ...(args as string[])]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
  it('a bad --level is a usage error', async () => {
    const r = await runCli(['stats', 'kripp', join(STATS, 'kripp-2011.json'), '--level', 'ratio']);
    expect(r.code).toBe(2);
  });
});
