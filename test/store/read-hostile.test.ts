/**
 * Issue 55: input files that read as something they are not. Ids with bytes that are not UTF-8
 * (two distinct ids would both decode to the same replacement text) are refused naming the line;
 * a small `.zst` that inflates to hundreds of MiB of blank lines stops at the blank-line cap, in a
 * child process whose peak RSS is bounded.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_BLANK_LINES } from '../../src/store/jsonl.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';
import { runCliMeasured } from '../support/peak-rss.js';

describe('hostile bytes in input files', () => {
  it('ids that are not valid UTF-8 are refused naming the file and line (exit 3), not merged', async () => {
    const file = join(tempDir(), 'latin.jsonl');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('{"a":"film-1","b":"film-2","score":1}\n{"a":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('","b":"film-1","score":1}\n{"a":"caf'),
        Buffer.from([0xe8]),
        Buffer.from('","b":"film-2","score":0}\n'),
      ]),
    );
    const r = await runCli(['stats', 'bt', file, '--json']);
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('latin.jsonl:2: not valid UTF-8');
  });

  it('a .zst of 256 MiB of blank lines stops at the cap naming the line (exit 3), the child within 300 MB', async () => {
    const file = join(tempDir(), 'blank.jsonl.zst');
    writeFileSync(file, zstdCompressSync(Buffer.alloc(256 * 1024 * 1024, 0x0a)));
    const r = await runCliMeasured(['stats', 'bt', file]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toBe(
      `kfbench: ${file}:${MAX_BLANK_LINES + 1}: more than ${MAX_BLANK_LINES} blank lines: not a file of records`,
    );
    expect(r.maxRssMb).toBeLessThan(300);
  });
});
