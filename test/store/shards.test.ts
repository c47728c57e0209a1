import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseShard } from '../../src/cli/shard-flag.js';
import { BadInputError, UsageError } from '../../src/errors.js';
import {
  checkShards,
  readShardFolders,
  type ShardFolder,
  type ShardRecord,
  selectItems,
  writeShardRecord,
} from '../../src/store/shards.js';
import { tempDir } from '../support/paths.js';

const ids = ['c', 'a', 'e', 'b', 'd'];

describe('--shard k/n', () => {
  it('parses k/n and refuses anything else', () => {
    expect(parseShard('2/3')).toEqual({ k: 2, n: 3 });
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/2/3'])
      expect(() => parseShard(bad)).toThrow(UsageError);
  });
  it('splits the sorted items round-robin: every item in exactly one shard, the same on every call', () => {
    const shards = [1, 2, 3].map((k) => selectItems(ids, { shard: { k, n: 3 }, what: 'id' }));
    expect(shards).toEqual([['a', 'd'], ['b', 'e'], ['c']]);
    expect(selectItems(ids, { shard: { k: 4, n: 4 }, what: 'id' })).toEqual(['d']);
    expect(selectItems(['a'], { shard: { k: 2, n: 2 }, what: 'id' })).toEqual([]);
  });
  it('a list first, then the shards split the list', () => {
    expect(selectItems(ids, { only: ['e', 'b', 'd'], what: 'id' })).toEqual(['b', 'd', 'e']);
    expect(selectItems(ids, { only: ['e', 'b', 'd'], shard: { k: 2, n: 2 }, what: 'id' })).toEqual(['d']);
    expect(() => selectItems(ids, { only: ['x'], what: 'case id' })).toThrow(/unknown case id\(s\): x/);
  });
});

describe('checkShards', () => {
  const rec = (items: string[], over: Partial<ShardRecord> = {}): ShardRecord => ({
    kind: 'hero evaluate',
    inputs: { chains: 'aa' },
    settings: { seed: '0', judge: { name: 'j', max_side: 768 } },
    all: ['a', 'b', 'c'],
    items,
    shard: null,
    complete: true,
    ...over,
  });
  const f = (dir: string, record: ShardRecord): ShardFolder => ({ dir, record });
  const refuse = (folders: ShardFolder[], msg: RegExp) => {
    let err: unknown;
    try {
      checkShards(folders, 'hero evaluate');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BadInputError);
    expect((err as Error).message).toMatch(msg);
    expect((err as Error).message).not.toContain('\n');
  };
  it('returns every item when the shards add up', () => {
    expect(checkShards([f('/s2', rec(['b'])), f('/s1', rec(['a', 'c']))], 'hero evaluate')).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
  it('names the differing setting (nested) or input and the folder', () => {
    const judge = rec(['b'], { settings: { seed: '0', judge: { name: 'j', max_side: 512 } } });
    refuse(
      [f('/s1', rec(['a', 'c'])), f('/s2', judge)],
      /^\/s2 differs from \/s1 in settings\.judge\.max_side:/,
    );
    refuse(
      [f('/s1', rec(['a', 'c'])), f('/s2', rec(['b'], { inputs: { chains: 'bb' } }))],
      /in inputs\.chains/,
    );
    refuse(
      [f('/s1', rec(['a', 'c'])), f('/s2', rec(['b'], { all: ['a', 'b'] }))],
      /in the items of its inputs/,
    );
  });
  it('names items missing or held twice, an incomplete shard and another kind', () => {
    refuse([f('/s1', rec(['a']))], /miss 2 of 3 item\(s\): b, c/);
    refuse(
      [f('/s1', rec(['a', 'b'])), f('/s2', rec(['b', 'c']))],
      /1 item\(s\) in more than one shard: b \(\/s1 and \/s2\)/,
    );
    refuse([f('/s1', rec(['a', 'b', 'c'], { complete: false }))], /\/s1 is incomplete/);
    refuse(
      [f('/s1', rec(['a', 'b', 'c'], { kind: 'compass score' }))],
      /holds a compass score result, not hero evaluate/,
    );
  });
  it('round-trips settings.json and refuses a folder without one', async () => {
    const dir = tempDir();
    const a = join(dir, 'a');
    mkdirSync(a);
    await writeShardRecord(a, rec(['a', 'b', 'c']));
    const [got] = await readShardFolders([a]);
    expect(got!.record).toEqual(rec(['a', 'b', 'c']));
    const b = join(dir, 'b');
    mkdirSync(b);
    writeFileSync(join(b, 'summary.json'), '{}');
    await expect(readShardFolders([b])).rejects.toThrow(/has no settings\.json/);
  });
});
