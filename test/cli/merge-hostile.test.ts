/**
 * `kfbench merge` on hostile shard folders (issue 46 items 6 and 11): a line cut short is exit 3
 * naming the file and the line (it was an internal error, exit 1); an outputs.json entry that is a
 * FIFO, a device, a path outside the shard or a link out of it is refused in one line naming
 * outputs.json and the entry (exit 3) before anything is opened (a FIFO hung the run, /dev/zero was
 * read without end, /etc/shadow's size reached the message); a settings.json that is a FIFO is no
 * evaluation folder; `--out` an existing file is a usage error (exit 2, it was exit 1). Real
 * folders, a real FIFO (mkfifo), real links; no emulator needed: the refusals come first.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { media, tempDir } from '../support/paths.js';

const SETTINGS = {
  kind: 'compass score',
  inputs: {},
  settings: {},
  all: ['a'],
  items: ['a'],
  shard: null,
  complete: true,
};
const ROWS = '{"case_id":"a","model":"m","x":1}\n{"case_id":"a","model":"m","x":2}\n';

/** A compass score shard folder by hand: settings.json, response.jsonl, run.json, outputs.json listing `extra` first. */
function shard(dir: string, extra: Record<string, number> = {}): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(SETTINGS));
  writeFileSync(join(dir, 'response.jsonl'), ROWS);
  writeFileSync(join(dir, 'run.json'), '{}');
  const files: Record<string, { bytes: number; sha256: string }> = {};
  for (const [name, bytes] of Object.entries(extra)) files[name] = { bytes, sha256: '0'.repeat(64) };
  for (const name of ['settings.json', 'response.jsonl', 'run.json']) {
    const bytes = readFileSync(join(dir, name));
    files[name] = { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  writeFileSync(join(dir, 'outputs.json'), JSON.stringify({ item_field: 'case_id', files }));
  return dir;
}

describe('kfbench merge on hostile shard folders', () => {
  it('a response.jsonl line cut short: exit 3 naming the file and the line', async () => {
    const dir = tempDir('kfbench-merge-hostile-');
    const s = shard(join(dir, 's1'));
    writeFileSync(join(s, 'response.jsonl'), ROWS.slice(0, ROWS.indexOf('\n') + 20));
    const r = await runCli(['merge', 'compass', s, '--out', join(dir, 'out')]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^kfbench: ${join(s, 'response.jsonl')}:2: not valid JSON`));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('an outputs.json entry that is a FIFO, a device, outside the folder or a link out: exit 3 naming the entry, nothing opened', async () => {
    const dir = tempDir('kfbench-merge-hostile-');
    const outside = join(dir, 'secret.txt');
    writeFileSync(outside, 'x'.repeat(12345));
    const cases: [string, (s: string) => void, RegExp][] = [
      ['fifo.jsonl', (s) => execFileSync('mkfifo', [join(s, 'fifo.jsonl')]), /is a FIFO, not a regular file/],
      ['../../../../../../dev/zero', () => undefined, /names a path outside the folder/],
      ['../secret.txt', () => undefined, /names a path outside the folder/],
      [outside, () => undefined, /names a path outside the folder/],
      ['zero', (s) => symlinkSync('/dev/zero', join(s, 'zero')), /is a link to a path outside the folder/],
      ['peek', (s) => symlinkSync(outside, join(s, 'peek')), /is a link to a path outside the folder/],
      ['sub', (s) => mkdirSync(join(s, 'sub')), /is a folder, not a regular file/],
    ];
    for (const [i, [entry, plant, why]] of cases.entries()) {
      const s = shard(join(dir, `s${i}`), { [entry]: 1 });
      plant(s);
      const r = await runCli(['merge', 'compass', s, '--out', join(dir, `out${i}`)]);
      expect(r.code, `${entry}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toContain(`kfbench: ${join(s, 'outputs.json')}: entry "${entry}" `);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toContain('12345');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('a settings.json that is a FIFO: exit 3, not a hang', async () => {
    const dir = tempDir('kfbench-merge-hostile-');
    const s = join(dir, 's1');
    mkdirSync(s);
    execFileSync('mkfifo', [join(s, 'settings.json')]);
    const r = await runCli(['merge', 'hero', s, '--out', join(dir, 'out')]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(join(s, 'settings.json'));
  });

  it('--out an existing file: exit 2 naming it, before any shard is read; the file is as it was', async () => {
    const dir = tempDir('kfbench-merge-hostile-');
    const s = shard(join(dir, 's1'));
    const file = join(dir, 'taken.txt');
    writeFileSync(file, 'mine');
    for (const kind of ['hero', 'compass']) {
      const r = await runCli(['merge', kind, s, '--out', file]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--out ${file} is a file, not a folder`);
      expect(readFileSync(file, 'utf8')).toBe('mine');
    }
    // every writer of an output folder refuses it alike (it failed after the work, exit 1)
    const sample = await runCli(['media', 'sample', media('fade.mp4'), '--fps', '1', '--out', file]);
    expect(sample.code, sample.stderr).toBe(2);
    expect(sample.stderr).toContain(`${file} is a file, not a folder`);
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });
});
