/** `kfbench hero frames locate`: times in a film or a clip → track frame indices, checked against the track index. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonlAll } from '../../src/store/jsonl.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';

let mini: MiniHeroPaths;
const A = TEST_FILMS[0]!.movie_id;
const B = TEST_FILMS[1]!.movie_id;
const Row = z.object({
  movie_id: z.string(),
  frame_idx: z.number(),
  clip_id: z.string(),
  t_in_clip: z.number(),
});
let index: z.output<typeof Row>[] = [];
beforeAll(async () => {
  mini = await sharedMiniHero();
  index = (await readJsonlAll(join(mini.data, 'frame_track', 'track_index.jsonl.zst'), Row)).map(
    (l) => l.value,
  );
});

/** A film's length on its timeline, summed from clips.jsonl's durations. */
function filmLength(movie: string): number {
  const line = readFileSync(join(mini.data, 'data', 'clips.jsonl'), 'utf8')
    .split('\n')
    .find((l) => l.includes(`"movie_id":"${movie}"`))!;
  const clips = JSON.parse(line).clips as { duration_s: number }[];
  return clips.reduce((s, c) => s + c.duration_s, 0);
}

describe('kfbench hero frames locate', () => {
  it("a film time lands in its second's frame; a clip time at a frame's t_in_clip gives that frame", async () => {
    const rows = index.filter((r) => r.movie_id === B);
    const last = rows.at(-1)!.frame_idx;
    const picks = [rows[0]!, rows[Math.floor(rows.length / 2)]!, rows.at(-1)!];
    const len = filmLength(B);
    const times = picks.flatMap((p) => [p.frame_idx, p.frame_idx + 0.5, p.frame_idx + 0.45]);
    const r = await runCli([
      ...['hero', 'frames', 'locate', '--data', mini.data, '--movie', B],
      ...['--time', [...times, len - 0.001].join(',')],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `${[...picks.flatMap((p) => [p.frame_idx, p.frame_idx, p.frame_idx]), last].join('\n')}\n`,
    );
    for (const p of picks) expect(existsSync(join(mini.track, B, `${p.frame_idx}.jpg`))).toBe(true);

    const mid = index.filter((x) => x.movie_id === A)[7]!;
    const c = await runCli([
      ...['hero', 'frames', 'locate', '--data', mini.data, '--clip', mid.clip_id],
      ...['--t', `${mid.t_in_clip},${mid.t_in_clip - 0.3}`, '--json'],
    ]);
    expect(c.code, c.stderr).toBe(0);
    const j = JSON.parse(c.stdout);
    expect(j[0]).toMatchObject({ movie_id: A, frame_idx: mid.frame_idx, clip_id: mid.clip_id });
    expect(j[0].offset_s).toBeCloseTo(0, 6);
    expect(j[1].frame_idx).toBe(mid.frame_idx);
    expect(j[1].offset_s).toBeCloseTo(0.3, 6);
  });

  it('a time past the end, an unknown film or clip is bad input naming clips.jsonl; mixed flags are a usage error', async () => {
    const past = await runCli([
      'hero',
      'frames',
      'locate',
      '--data',
      mini.data,
      '--movie',
      A,
      '--time',
      '99999',
    ]);
    expect(past.code).toBe(3);
    expect(past.stderr).toMatch(/clips\.jsonl: --time 99999 is past the end of /);
    expect(past.stderr.trim().split('\n')).toHaveLength(1);
    const clip = await runCli([
      'hero',
      'frames',
      'locate',
      '--data',
      mini.data,
      '--clip',
      'nope',
      '--t',
      '1',
    ]);
    expect(clip.code).toBe(3);
    expect(clip.stderr).toMatch(/clips\.jsonl: no clip nope in any film/);
    const both = await runCli([
      ...['hero', 'frames', 'locate', '--data', mini.data],
      ...['--movie', A, '--time', '1', '--clip', 'x'],
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either --movie ID --time T or --clip ID --t T/);
  });
});
