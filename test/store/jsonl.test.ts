import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadInputError, KfbenchError } from '../../src/errors.js';
import { TrackRow } from '../../src/hero/dataset/schemas.js';
import { readJsonFile, readJsonlAll, writeJsonFile, writeJsonl } from '../../src/store/jsonl.js';
import { MAX_LINE_BYTES, MAX_WHOLE_FILE_BYTES } from '../../src/store/limits.js';
import { writeZstd } from '../../src/store/zstd.js';
import { tempDir } from '../support/paths.js';

const Row = z.object({ i: z.number(), s: z.string() });
const rows = (n: number, from = 0) =>
  Array.from({ length: n }, (_, k) => ({
    i: from + k,
    s: `row ${from + k} ${'x'.repeat(((from + k) * 7919) % 97)}`,
  }));

/** The zstd command's compression of `text` (a second, independent writer). */
function zstdCli(text: string): Buffer {
  const r = spawnSync('zstd', ['-q', '-c', '-3'], { input: text });
  expect(r.status).toBe(0);
  return r.stdout;
}

describe('.jsonl.zst through node:zlib', () => {
  it('round-trips, and reads what the zstd command wrote (several frames too)', async () => {
    const dir = tempDir();
    const f = join(dir, 'a.jsonl.zst');
    await writeJsonl(f, Row, rows(3000));
    expect((await readJsonlAll(f, Row)).map((l) => l.value)).toEqual(rows(3000));
    const two = join(dir, 'two.jsonl.zst');
    const text = (r: ReturnType<typeof rows>) => r.map((x) => `${JSON.stringify(x)}\n`).join('');
    writeFileSync(two, Buffer.concat([zstdCli(text(rows(500))), zstdCli(text(rows(500, 500)))]));
    expect((await readJsonlAll(two, Row)).map((l) => l.value)).toEqual(rows(1000));
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl.zst', 'two.jsonl.zst']);
  });

  it.each([
    ['cut to half', (b: Buffer, _first: number) => b.subarray(0, b.length >> 1)],
    ['cut by its last byte', (b: Buffer, _first: number) => b.subarray(0, b.length - 1)],
    ['junk', (b: Buffer, _first: number) => Buffer.from('this is not zstd at all\n'.repeat(b.length >> 6))],
    ['cut inside its second frame', (b: Buffer, first: number) => b.subarray(0, first + 20)],
    [
      'a good frame then junk',
      (b: Buffer, first: number) => Buffer.concat([b.subarray(0, first), Buffer.from('junk\n')]),
    ],
    ['empty', (_b: Buffer, _first: number) => Buffer.alloc(0)],
  ])('a file %s is bad input naming the file, never a short read', async (_what, damage) => {
    const dir = tempDir();
    const text = (r: ReturnType<typeof rows>) => r.map((x) => `${JSON.stringify(x)}\n`).join('');
    const a = zstdCli(text(rows(2000)));
    const whole = Buffer.concat([a, zstdCli(text(rows(2000, 2000)))]);
    const f = join(dir, 'track_index.jsonl.zst');
    writeFileSync(f, damage(whole, a.length));
    const err = await readJsonlAll(f, Row).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BadInputError);
    expect((err as Error).message).toContain(f);
  });
});

describe('writers bound to their schema', () => {
  it('the writer refuses a row its reader refuses: an internal error naming file and row, and no file', async () => {
    const dir = tempDir();
    const good = { movie_id: 'm1', frame_idx: 0, clip_id: 'c1', t_in_clip: 0 };
    const bad = { movie_id: '../m1', frame_idx: 1, clip_id: 'c1', t_in_clip: 0.04 };
    // the reader refuses the row (written by hand)
    const byHand = join(dir, 'by-hand.jsonl');
    writeFileSync(byHand, `${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`);
    const read = await readJsonlAll(byHand, TrackRow).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(BadInputError);
    expect((read as Error).message).toContain(`${byHand}:2:`);
    // so does the writer, with the same schema, before the file exists
    const file = join(dir, 'track_index.jsonl');
    const e = await writeJsonl(file, TrackRow, [good, bad]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KfbenchError);
    expect((e as KfbenchError).code).toBe('INTERNAL');
    expect((e as Error).message).toMatch(
      new RegExp(`^${file}: row 2 does not match the file's schema \\(movie_id: `),
    );
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir)).toEqual(['by-hand.jsonl']);
    // a good row goes through, and reads back
    await writeJsonl(file, TrackRow, [good]);
    expect((await readJsonlAll(file, TrackRow)).map((l) => l.value)).toEqual([good]);
  });

  it('a JSON file too: refused before it exists when its reader would refuse it, else written as given', async () => {
    const dir = tempDir();
    const file = join(dir, 'row.json');
    const e = await writeJsonFile(file, TrackRow, {
      movie_id: '../m1',
      frame_idx: 0,
      clip_id: 'c1',
      t_in_clip: 0,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KfbenchError);
    expect((e as KfbenchError).code).toBe('INTERNAL');
    expect((e as Error).message).toMatch(
      new RegExp(`^${file}: does not match the file's schema \\(movie_id: `),
    );
    expect(existsSync(file)).toBe(false);
    // keys in the order given (not the schema's), two-space indented, a final newline
    const good = { t_in_clip: 0, movie_id: 'm1', frame_idx: 0, clip_id: 'c1' };
    await writeJsonFile(file, TrackRow, good);
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(good, null, 2)}\n`);
    expect(await readJsonFile(file, TrackRow)).toEqual(good);
  });
});

describe('size limits', () => {
  it('a 2 GB line (a sparse file) is bad input naming file and line, without reading it all', async () => {
    const f = join(tempDir(), 'chains.jsonl');
    writeFileSync(f, `${JSON.stringify({ i: 1, s: 'a' })}\n`);
    const fd = openSync(f, 'r+');
    ftruncateSync(fd, 2 * 1024 ** 3);
    closeSync(fd);
    await expect(readJsonlAll(f, Row)).rejects.toThrow(
      new RegExp(`${f}:2: line longer than the ${MAX_LINE_BYTES / 1024 ** 2} MiB limit`),
    );
  });

  it('a small .zst that expands past the line limit is bad input, and its decompressor is stopped', async () => {
    const f = join(tempDir(), 'bomb.jsonl.zst');
    const zeros = Buffer.alloc(1 << 20);
    await writeZstd(
      f,
      Readable.from(
        (function* () {
          for (let k = 0; k < MAX_LINE_BYTES / zeros.length + 8; k++) yield zeros;
        })(),
      ),
    );
    expect(readFileSync(f).length).toBeLessThan(1 << 20);
    await expect(readJsonlAll(f, Row)).rejects.toThrow(new RegExp(`${f}:1: line longer than`));
  });

  it('a 2 GB file read whole (a sparse config) is refused before reading', async () => {
    const f = join(tempDir(), 'summary.json');
    writeFileSync(f, '{}');
    const fd = openSync(f, 'r+');
    ftruncateSync(fd, 2 * 1024 ** 3);
    closeSync(fd);
    await expect(readJsonFile(f, z.object({}))).rejects.toThrow(
      new RegExp(
        `${f}: too large \\(2048 MiB; files read whole are limited to ${MAX_WHOLE_FILE_BYTES / 1024 ** 2} MiB\\)`,
      ),
    );
  });

  it('CRLF line ends and a last line without a newline still read', async () => {
    const f = join(tempDir(), 'x.jsonl');
    writeFileSync(f, '{"i":1,"s":"a"}\r\n\r\n{"i":2,"s":"é"}');
    expect(await readJsonlAll(f, Row)).toEqual([
      { line: 1, value: { i: 1, s: 'a' } },
      { line: 3, value: { i: 2, s: 'é' } },
    ]);
  });
});
