/**
 * A film of your own (issue 57 item 7): `hero init --footage DIR` writes the dataset layout for
 * films made here by ffmpeg — one folder per film, its clips in file-name order, their durations
 * probed and laid end to end — and the next commands it prints (track rebuild, make-index, verify)
 * run as printed on it. Bad footage is one line naming the folder; an existing dataset is kept.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';

let dir = '';
let footage = '';

/** A clip of `seconds` at 24 fps, made by ffmpeg (a test pattern, its own hue per clip). */
function clip(file: string, seconds: number, hue: number): void {
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=24:duration=${seconds}`],
    ...['-vf', `hue=h=${hue}`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-y', file],
  ]);
}

beforeAll(() => {
  dir = tempDir('kfbench-hero-init-');
  footage = join(dir, 'films');
  mkdirSync(join(footage, '0001_My_Film'), { recursive: true });
  clip(join(footage, '0001_My_Film', 'a_opening.mp4'), 2, 0);
  clip(join(footage, '0001_My_Film', 'b_ending.mp4'), 3, 90);
});

describe('hero init', () => {
  it('writes movies.jsonl and clips.jsonl from the footage, and its next commands run as printed', async () => {
    const r = await runCli(['hero', 'init', '--footage', footage, '--out', 'mine'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote 1 film\(s\), 2 clip\(s\) to mine\/data/);
    const movies = readFileSync(join(dir, 'mine', 'data', 'movies.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(movies.map((l) => JSON.parse(l))).toEqual([
      { movie_id: '0001_My_Film', title: 'My Film', year: 0, synopsis: 'TODO: what My Film is about' },
    ]);
    const clips = JSON.parse(readFileSync(join(dir, 'mine', 'data', 'clips.jsonl'), 'utf8'));
    expect(clips.movie_id).toBe('0001_My_Film');
    expect(clips.clips.map((c: { clip_id: string }) => c.clip_id)).toEqual(['a_opening', 'b_ending']);
    expect(clips.clips[0]).toMatchObject({ start: '00:00:00.000', end: '00:00:02.000', duration_s: 2 });
    expect(clips.clips[1]).toMatchObject({ start: '00:00:02.000', end: '00:00:05.000', duration_s: 3 });
    // the next commands, as printed
    const next = r.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('npx kfbench hero track'));
    expect(next.map((l) => l.split(' ')[4])).toEqual(['rebuild', 'make-index', 'verify']);
    for (const line of next) {
      const x = await runCli(line.split(/\s+/).slice(2), { cwd: dir });
      expect(x.code, `${line}: ${x.stderr}`).toBe(0);
    }
  });

  it('refuses to overwrite a dataset, and names a footage folder without films', async () => {
    const again = await runCli(['hero', 'init', '--footage', footage, '--out', 'mine'], { cwd: dir });
    expect(again.code).toBe(3);
    expect(again.stderr.trim()).toBe(
      `kfbench: ${join(dir, 'mine', 'data', 'movies.jsonl')}: already exists: hero init writes a new dataset only`,
    );
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const none = await runCli(['hero', 'init', '--footage', empty, '--out', join(dir, 'x')]);
    expect(none.code).toBe(3);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toContain(empty);
  });
});
