/**
 * Issue 55 item 8: ids from the data that are Object.prototype names (`__proto__`, `constructor`,
 * `toString`, `valueOf`, `hasOwnProperty`) are counted and keyed like any other id in the record a
 * run writes last (outputs.json, its rows by item) and in the merge's check of it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idRecord } from '../../src/store/id-record.js';
import {
  checkRowsRead,
  OUTPUTS_FILE,
  type ShardRecord,
  verifyShardOutputs,
  writeOutputsRecord,
} from '../../src/store/shards.js';
import { tempDir } from '../support/paths.js';

const IDS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'plain'];

describe('ids that are Object.prototype names', () => {
  it('outputs.json counts their rows, and a merge check reads them back', async () => {
    const dir = tempDir();
    const rows = IDS.flatMap((id, k) => Array.from({ length: k + 1 }, (_, r) => ({ case_id: id, r })));
    writeFileSync(join(dir, 'rows.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await writeOutputsRecord(dir, 'case_id');
    const written = JSON.parse(readFileSync(join(dir, OUTPUTS_FILE), 'utf8')) as {
      files: Record<string, { rows_by_item: Record<string, number> }>;
    };
    const by = written.files['rows.jsonl']!.rows_by_item;
    expect(Object.keys(by).sort()).toEqual([...IDS].sort());
    expect(IDS.map((id) => Object.getOwnPropertyDescriptor(by, id)?.value)).toEqual(IDS.map((_, k) => k + 1));

    const folder = { dir, record: { items: IDS } as ShardRecord };
    const rec = await verifyShardOutputs(folder, ['rows.jsonl']);
    expect(() => checkRowsRead(folder, rec, 'rows.jsonl', rows)).not.toThrow();
    // one row of __proto__ fewer is noticed (it was not silently dropped)
    const fewer = rows.filter((r) => !(r.case_id === '__proto__' && r.r === 0));
    expect(() => checkRowsRead(folder, rec, 'rows.jsonl', fewer)).toThrow(
      /0 row\(s\) of __proto__ read, 1 written/,
    );
  });

  it('idRecord keeps every key and checks every value', () => {
    const schema = idRecord(z.number());
    const parsed = schema.parse(JSON.parse('{"__proto__": 1, "constructor": 2}'));
    expect(Object.keys(parsed).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(parsed)).toBe(null);
    expect(schema.safeParse({ toString: 'x' }).error?.issues[0]?.path).toEqual(['toString']);
  });
});
