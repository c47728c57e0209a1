/**
 * Issue 55, items 8 and 9 for `kfbench stats bt`: ids that are Object.prototype names are items
 * like any other, and a sparse comparison graph of 20,000 items is fitted by a child process
 * whose heap is bounded (the dense Newton step needed n² doubles: 3.2 GB); beyond the item limit,
 * one line (exit 3).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_BT_ITEMS } from '../../src/stats/bradley-terry.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';
import { runCliMeasured } from '../support/peak-rss.js';

const PROTO_IDS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

/**
 * `n` items, each compared with two others drawn at random (a seeded generator) and with the next
 * one (so the graph is connected), a win and a loss or two wins each: a sparse random tournament.
 */
function randomGraph(n: number): string {
  let state = 12345;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    for (const j of [(i + 1) % n, next() % n, next() % n]) {
      if (j === i) continue;
      lines.push(JSON.stringify({ a: `item${i}`, b: `item${j}`, score: 1 }));
      lines.push(JSON.stringify({ a: `item${i}`, b: `item${j}`, score: next() % 3 === 0 ? 1 : 0 }));
    }
  return `${lines.join('\n')}\n`;
}

describe('stats bt on hostile input', () => {
  it('8. ids named __proto__, constructor, toString, valueOf are items in both outputs', async () => {
    const file = join(tempDir(), 'proto.jsonl');
    const lines = PROTO_IDS.flatMap((a, k) => [
      { a, b: PROTO_IDS[(k + 1) % PROTO_IDS.length]!, score: 1 },
      { a, b: PROTO_IDS[(k + 1) % PROTO_IDS.length]!, score: k % 2 },
    ]);
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const json = await runCli(['stats', 'bt', file, '--json']);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const strengths = (JSON.parse(json.stdout) as { strengths: Record<string, number> }).strengths;
    expect(Object.keys(strengths).sort()).toEqual([...PROTO_IDS].sort());
    for (const id of PROTO_IDS)
      expect(Number.isFinite(Object.getOwnPropertyDescriptor(strengths, id)?.value)).toBe(true);
    const text = await runCli(['stats', 'bt', file]);
    expect(text.code).toBe(0);
    for (const id of PROTO_IDS) expect(text.stdout).toMatch(new RegExp(`^\\s+-?\\d+\\.\\d{6}  ${id}$`, 'm'));
  });

  it('9. 20,000 items in a sparse graph are fitted by a child whose peak RSS stays under 450 MB; more than the limit is one line (exit 3)', async () => {
    const dir = tempDir();
    const file = join(dir, 'sparse.jsonl');
    writeFileSync(file, randomGraph(20_000));
    const r = await runCliMeasured(['stats', 'bt', file, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // the dense step held n² doubles (3.2 GB, 6 GB resident when stopped); the sparse one ~0.2 GB
    expect(r.maxRssMb).toBeLessThan(450);
    const out = JSON.parse(r.stdout) as { strengths: Record<string, number>; mle_exists: boolean };
    expect(out.mle_exists).toBe(true);
    const v = Object.values(out.strengths);
    expect(v).toHaveLength(20_000);
    expect(Math.abs(v.reduce((a, b) => a + b, 0))).toBeLessThan(1e-6);

    const big = join(dir, 'big.jsonl');
    const n = MAX_BT_ITEMS + 1;
    writeFileSync(
      big,
      Array.from({ length: n }, (_, i) =>
        JSON.stringify({ a: `i${i}`, b: `i${(i + 1) % n}`, score: 1 }),
      ).join('\n'),
    );
    const over = await runCli(['stats', 'bt', big]);
    expect(over.code).toBe(3);
    expect(over.stderr.trim().split('\n')).toHaveLength(1);
    expect(over.stderr).toMatch(
      new RegExp(`big\\.jsonl: Bradley–Terry takes at most ${MAX_BT_ITEMS} items, got ${n}`),
    );
  });
});
