/** `kfbench cache merge` on real SQLite files: a union, shared keys checked, conflicts reported (exit 5). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JudgeCache } from '../../src/judge/cache.js';
import type { CachedAnswer } from '../../src/judge/cache-rows.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';

const meta = { backend: 'openai', model: 'm', protocol: 'pairwise' };
const answer = (winner: string): CachedAnswer => ({
  answer: { winner },
  unresolved: null,
  raw: [`{"winner":"${winner}"}`],
  usage: { prompt_tokens: 10, completion_tokens: 2 },
  latency_ms: 5,
});

function cacheWith(file: string, rows: [string, string][]): string {
  const c = new JudgeCache(file);
  for (const [k, w] of rows) c.put(k, meta, answer(w));
  c.close();
  return file;
}

describe('kfbench cache merge', () => {
  it('unions the shards, a key held twice with the same answer counted once', async () => {
    const d = tempDir();
    const a = cacheWith(join(d, 'a.sqlite'), [
      ['k1', 'A'],
      ['k2', 'B'],
    ]);
    const b = cacheWith(join(d, 'b.sqlite'), [
      ['k2', 'B'],
      ['k3', 'A'],
    ]);
    const out = join(d, 'all.sqlite');
    const r = await runCli(['cache', 'merge', a, b, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, shared: 1, conflicts: [] });
    const c = new JudgeCache(out);
    expect(c.get('k1')?.answer).toEqual({ winner: 'A' });
    expect(c.get('k3')?.answer).toEqual({ winner: 'A' });
    c.close();
    // an existing --out is refused (exit 2), never overwritten
    const again = await runCli(['cache', 'merge', a, b, '--out', out]);
    expect(again.code).toBe(2);
  });

  it('a key with different answers is reported with both files (exit 5) and the first answer kept', async () => {
    const d = tempDir();
    const a = cacheWith(join(d, 'a.sqlite'), [['k1', 'A']]);
    const b = cacheWith(join(d, 'b.sqlite'), [
      ['k1', 'B'],
      ['k2', 'B'],
    ]);
    const out = join(d, 'all.sqlite');
    const r = await runCli(['cache', 'merge', a, b, '--out', out]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/1 key\(s\) hold different answers .*k1 in .*a\.sqlite and .*b\.sqlite/);
    const c = new JudgeCache(out);
    expect(c.get('k1')?.answer).toEqual({ winner: 'A' });
    expect(c.get('k2')?.answer).toEqual({ winner: 'B' });
    c.close();
    const missing = await runCli(['cache', 'merge', join(d, 'nope.sqlite'), '--out', join(d, 'x.sqlite')]);
    expect(missing.code).toBe(3);
    expect(existsSync(join(d, 'x.sqlite'))).toBe(false);
  });
});
