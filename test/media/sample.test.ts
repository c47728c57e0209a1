/** `media sample` writes all of its frames or none: a damaged video leaves nothing behind. */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { media, tempDir } from '../support/paths.js';

describe('media sample output', () => {
  it('a truncated video: exit 3 naming it, no JPEG and no temp folder left, other files untouched', async () => {
    const out = tempDir();
    writeFileSync(join(out, 'keep.txt'), 'mine');
    const r = await runCli(['media', 'sample', media('truncated-data.mp4'), '--fps', '4', '--out', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('truncated-data.mp4');
    expect(readdirSync(out)).toEqual(['keep.txt']);
    // an output folder that was not there is not made (nor anything staged beside it)
    const parent = tempDir();
    const fresh = join(parent, 'frames');
    const again = await runCli([
      'media',
      'sample',
      media('truncated-data.mp4'),
      '--fps',
      '4',
      '--out',
      fresh,
    ]);
    expect(again.code).toBe(3);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a good video: every frame lands in the folder and nothing else', async () => {
    const out = tempDir();
    const r = await runCli([
      'media',
      'sample',
      media('shots.mp4'),
      '--at',
      '0.5,1.5,1.5',
      '--out',
      out,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const files = JSON.parse(r.stdout) as { path: string }[];
    expect(readdirSync(out).sort()).toEqual(
      [...new Set(files.map((f) => f.path.slice(out.length + 1)))].sort(),
    );
    expect(readdirSync(out).every((f) => /^\d+\.jpg$/.test(f))).toBe(true);
  });

  it('run again with other times: only the new frames, the earlier ones gone, other files kept (issue 55)', async () => {
    const out = tempDir();
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const first = await runCli(['media', 'sample', media('shots.mp4'), '--at', '0,5', '--out', out]);
    expect(first.code).toBe(0);
    const second = await runCli(['media', 'sample', media('shots.mp4'), '--at', '2.01', '--out', out]);
    expect(second.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['48.jpg', 'notes.txt']);
  });
});
