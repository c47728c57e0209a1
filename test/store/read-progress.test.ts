/**
 * Issue 55 item 15: a long read is seen moving. A file of READ_PROGRESS_BYTES or more, read with
 * `onProgress`, is told as phase `read <name>`, one item a MiB of the file (of a `.zst`, its
 * compressed bytes); a smaller file says nothing.
 */
import { randomBytes } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/progress.js';
import { READ_PROGRESS_BYTES, readLines } from '../../src/store/jsonl.js';
import { tempDir } from '../support/paths.js';

/** Lines of random hex (incompressible), `bytes` in all. */
function hexLines(bytes: number): Buffer {
  const line = 1000;
  const rows: string[] = [];
  for (let n = 0; n < bytes; n += line + 1) rows.push(randomBytes(line / 2).toString('hex'));
  return Buffer.from(`${rows.join('\n')}\n`);
}

async function readAll(file: string, events: ProgressEvent[]): Promise<number> {
  let n = 0;
  for await (const _ of readLines(file, { onProgress: (e) => events.push(e) })) n++;
  return n;
}

describe('the progress of a long read', () => {
  it('a plain file and a .zst of 9 MiB: one item a MiB of the file, then finished', async () => {
    const dir = tempDir();
    // hex compresses to about half: the .zst's text is twice as long
    const text = hexLines(2 * READ_PROGRESS_BYTES + 2 * 1024 * 1024);
    const plain = join(dir, 'big.jsonl');
    const zst = join(dir, 'big.jsonl.zst');
    writeFileSync(plain, text);
    writeFileSync(zst, zstdCompressSync(text));
    expect(statSync(zst).size).toBeGreaterThanOrEqual(READ_PROGRESS_BYTES);
    for (const file of [plain, zst]) {
      const events: ProgressEvent[] = [];
      const lines = await readAll(file, events);
      expect(lines).toBe(text.toString().split('\n').length - 1);
      const mib = Math.ceil(statSync(file).size / (1024 * 1024));
      const name = file.endsWith('.zst') ? 'read big.jsonl.zst' : 'read big.jsonl';
      expect(events[0]).toEqual({ type: 'phase-started', phase: name, total: mib, unit: 'MiB' });
      expect(events.filter((e) => e.type === 'item-done')).toHaveLength(mib);
      expect(events.at(-1)).toEqual({ type: 'phase-finished', phase: name, done: mib });
    }
  });

  it('a small file says nothing', async () => {
    const file = join(tempDir(), 'small.jsonl');
    writeFileSync(file, hexLines(64 * 1024));
    const events: ProgressEvent[] = [];
    expect(await readAll(file, events)).toBeGreaterThan(0);
    expect(events).toEqual([]);
  });
});
