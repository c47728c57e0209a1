/**
 * Ids that must be unique in a HeroFrame root (issue 46 item 8): two chains with the same
 * group_id + chain_index passed `hero validate`; so did a second row of a film in chains.jsonl or
 * rubrics.jsonl, a criterion id twice in a rubric, an image path twice in image_sha256.jsonl, a
 * frame twice in the track index or the verify file, and a method with a reader twice in
 * baselines.jsonl. Each is now a problem naming the duplicate's file:line and where the first is
 * (exit 3). Also `hero inspect` on a record nested 200,000 deep (a stack overflow, exit 1 → exit 3
 * naming file and line) and `hero validate --data` a folder that is not there (issue 50 item 7:
 * one line, exit 3). Real copies of the mini set; real .zst files through the store's own writer.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadChains } from '../../src/hero/dataset/load.js';
import { validateDataset } from '../../src/hero/dataset/validate.js';
import { readJsonlAll, writeJsonl } from '../../src/store/jsonl.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
beforeAll(async () => {
  mini = await sharedMiniHero();
});

function copy(): string {
  const d = join(tempDir('kfbench-ids-'), 'heroframe');
  cpSync(mini.data, d, { recursive: true });
  return d;
}

type Row = Record<string, unknown>;
const rowsOf = (f: string): Row[] =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const writeRows = (f: string, rows: Row[]) =>
  writeFileSync(f, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);

describe('hero validate refuses an id that must be unique', () => {
  it('two chains with the same group_id + chain_index: exit 3, both places named', async () => {
    const d = copy();
    const file = join(d, 'data', 'chains.jsonl');
    const rows = rowsOf(file);
    const chains = rows[0]!.chains as Row[];
    expect(chains.length).toBeGreaterThanOrEqual(2);
    // the second chain made a copy of the first's ids (its images and pairs stay its own)
    chains[1]!.group_id = chains[0]!.group_id;
    chains[1]!.chain_index = chains[0]!.chain_index;
    writeRows(file, rows);
    const r = await runCli(['hero', 'validate', '--data', d]);
    expect(r.code, r.stderr).toBe(3);
    const id = `${rows[0]!.movie_id}#${chains[0]!.chain_index}`;
    expect(r.stderr).toContain(
      `${file}:1: chains[1] is a second chain ${id} (group_id ${chains[0]!.group_id}, chain_index ${chains[0]!.chain_index}): the first is at ${file}:1 (chains[0])`,
    );
    // and every command that loads the chains (evaluate, build, the analyses) refuses them too
    await expect(loadChains(d)).rejects.toThrow(
      `${file}:1: chains[1] is a second chain ${id} (chains[0] is the first): run hero validate`,
    );
  });

  it('a film twice in chains.jsonl (the same chains on two lines): both lines named', async () => {
    const d = copy();
    const file = join(d, 'data', 'chains.jsonl');
    const rows = rowsOf(file);
    writeRows(file, [...rows, rows[0]!]);
    const n = rows.length + 1;
    const { problems } = await validateDataset(d);
    expect(problems).toContain(
      `${file}:${n}: duplicate movie_id ${rows[0]!.movie_id} (its first row is ${file}:1)`,
    );
    expect(problems.some((p) => p.startsWith(`${file}:${n}: chains[0] is a second chain `))).toBe(true);
    expect(problems.some((p) => p.endsWith(`the first is at ${file}:1 (chains[0])`))).toBe(true);
  });

  it('a rubric row twice, a criterion id twice, an image path twice, a baseline row twice', async () => {
    const d = copy();
    const rubrics = join(d, 'data', 'rubrics.jsonl');
    const rr = rowsOf(rubrics);
    // the mini rubrics are empty: two criteria of one id
    const criterion = {
      criterion_id: 'L1',
      as_the_judge_read_it: 'faces',
      source_pair: ['a', 'b'],
      round: 0,
    };
    rr[0]!.criteria = [criterion, { ...criterion, as_the_judge_read_it: 'light' }];
    writeRows(rubrics, [...rr, rr[1] ?? rr[0]!]);
    const sha = join(d, 'images', 'image_sha256.jsonl');
    const sr = rowsOf(sha);
    writeRows(sha, [...sr, sr[0]!]);
    const baselines = join(d, 'eval', 'baselines.jsonl');
    mkdirSync(join(d, 'eval'), { recursive: true });
    const base = {
      method: 'uniform',
      reader: 'r',
      S: 0.5,
      S_at_k: { '1': 0.5 },
      top1_rate: 0.1,
      beat_still_rate: 0.2,
      per_film: {},
    };
    writeRows(baselines, [base, { ...base, method: 'random' }, base]);
    const { problems } = await validateDataset(d);
    expect(problems).toContain(
      `${rubrics}:1: criteria[1] repeats criterion_id L1 of criteria[0] (each criterion of a film once)`,
    );
    expect(problems).toContain(
      `${rubrics}:${rr.length + 1}: duplicate movie_id ${(rr[1] ?? rr[0]!).movie_id} (its first row is ${rubrics}:${rr[1] ? 2 : 1})`,
    );
    expect(problems).toContain(
      `${sha}:${sr.length + 1}: duplicate path ${sr[0]!.path} (first listed at ${sha}:1)`,
    );
    expect(problems).toContain(
      `${baselines}:3: a second row of method uniform with reader r (the first is ${baselines}:1)`,
    );
  });

  it('a frame twice in the track index and in the verify file (.zst)', async () => {
    const d = copy();
    for (const name of ['track_index.jsonl.zst', 'verify_dhash.jsonl.zst']) {
      const file = join(d, 'frame_track', name);
      const rows = (await readJsonlAll(file, z.record(z.string(), z.unknown()))).map((l) => l.value);
      await writeJsonl(file, z.record(z.string(), z.unknown()), [
        ...rows.slice(0, 3),
        rows[1]!,
        ...rows.slice(3),
      ]);
      const { problems } = await validateDataset(d);
      expect(problems).toContain(
        `${file}:4: duplicate frame ${rows[1]!.movie_id} ${rows[1]!.frame_idx} (first at ${file}:2)`,
      );
    }
  });

  it('the mini set itself has no duplicate', async () => {
    expect((await validateDataset(mini.data)).problems).toEqual([]);
  });
});

describe('a root that is not there, a record too deep', () => {
  it('hero validate --data a folder that does not exist: one line, exit 3 (not a summary of nothing)', async () => {
    const missing = join(tempDir('kfbench-ids-'), 'no-such-root');
    const r = await runCli(['hero', 'validate', '--data', missing]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`kfbench: ${missing}: no such folder (the dataset root)\n`);
  });

  it('hero inspect on a record nested 200,000 deep: exit 3 naming the file and line, not a stack overflow', async () => {
    const d = join(tempDir('kfbench-ids-'), 'root');
    mkdirSync(join(d, 'data'), { recursive: true });
    const deep = 200_000;
    const file = join(d, 'data', 'movies.jsonl');
    writeFileSync(
      file,
      `{"movie_id":"a","title":"t","year":1}\n{"movie_id":${'['.repeat(deep)}${']'.repeat(deep)}}\n`,
    );
    for (const json of [[], ['--json']]) {
      const r = await runCli(['hero', 'inspect', '--data', d, ...json]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`^kfbench: ${file}:2: a record nested deeper than 64 levels`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
