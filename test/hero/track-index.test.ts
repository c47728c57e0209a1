/**
 * Issue 54 item 5. The card: "frame_track/track_index.jsonl.zst pins each one to a (clip_id,
 * t_in_clip) coordinate". `hero track rebuild` extracts each frame at its published coordinate
 * where the index is present (the midpoint rule only without one), and `hero validate` counts and
 * names the frames where the rule and the index disagree — no longer a problem of the root.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { datasetPaths } from '../../src/hero/dataset/layout.js';
import { TrackRow } from '../../src/hero/dataset/schemas.js';
import { validateDataset } from '../../src/hero/dataset/validate.js';
import { rebuildTrack } from '../../src/hero/track/rebuild.js';
import { readJsonlAll, writeJsonl } from '../../src/store/jsonl.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
const A = TEST_FILMS[0]!.movie_id;
beforeAll(async () => {
  mini = await sharedMiniHero();
});

/** A copy of the mini root whose index pins film A's frame 3 to frame 5's coordinate. */
async function movedIndex(): Promise<string> {
  const root = join(tempDir(), 'heroframe');
  cpSync(mini.data, root, { recursive: true });
  const file = datasetPaths(root).trackIndex;
  const rows = (await readJsonlAll(file, TrackRow)).map((l) => l.value);
  const five = rows.find((r) => r.movie_id === A && r.frame_idx === 5)!;
  const moved = rows.map((r) =>
    r.movie_id === A && r.frame_idx === 3 ? { ...r, clip_id: five.clip_id, t_in_clip: five.t_in_clip } : r,
  );
  await writeJsonl(file, TrackRow, moved);
  return root;
}

describe('the published frame coordinates (issue 54 item 5)', () => {
  it('rebuild extracts each frame at its index coordinate; without the index, by the rule', async () => {
    const root = await movedIndex();
    const out = tempDir();
    const r = await rebuildTrack({ lsmdc: mini.lsmdc, data: root, out, movies: [A] });
    expect(r.failed).toEqual([]);
    expect(r.from_index).toEqual([A]);
    const jpg = (dir: string, k: number) => readFileSync(join(dir, A, `${k}.jpg`));
    // frame 3 is now the picture of frame 5: the same decoded frame, the same JPEG bytes
    expect(jpg(out, 3).equals(jpg(out, 5))).toBe(true);
    // every other frame is the shipped track's (whose index agrees with the rule)
    for (const k of [0, 1, 2, 4, 5, 6]) expect(jpg(out, k).equals(jpg(mini.track, k))).toBe(true);
    rmSync(datasetPaths(root).trackIndex);
    const ruled = tempDir();
    const again = await rebuildTrack({ lsmdc: mini.lsmdc, data: root, out: ruled, movies: [A] });
    expect(again.from_index).toEqual([]);
    expect(jpg(ruled, 3).equals(jpg(ruled, 5))).toBe(false);
    expect(jpg(ruled, 3).equals(jpg(mini.track, 3))).toBe(true);
  });

  it('hero validate counts and names where the rule and the index disagree, and it is not a problem', async () => {
    const root = await movedIndex();
    const v = await validateDataset(root);
    expect(v.problems).toEqual([]);
    expect(v.summary.rule_disagreements.count).toBe(1);
    expect(v.summary.rule_disagreements.frames[0]).toMatch(
      new RegExp(`^${A} 3: index \\S+@[\\d.]+, rule \\S+@[\\d.]+ \\(line \\d+\\)$`),
    );
    const clean = await validateDataset(mini.data);
    expect(clean.summary.rule_disagreements).toEqual({ count: 0, frames: [] });
    const cli = await runCli(['hero', 'validate', '--data', root]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(
      /^1 track frame\(s\) where the published index and kfbench's midpoint rule disagree/m,
    );
    expect(cli.stdout).toContain(`  ${A} 3: index `);
  });
});
