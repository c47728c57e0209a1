import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isKfbenchError } from '../../src/errors.js';
import { loadCore } from '../../src/hero/dataset/load.js';
import { DONE_FILE, rebuildTrack } from '../../src/hero/track/rebuild.js';
import { selectFilms } from '../../src/hero/track/shard.js';
import { Timeline } from '../../src/hero/track/timeline.js';
import { verifyTrack } from '../../src/hero/track/verify.js';
import type { ProgressEvent } from '../../src/progress.js';
import { openZstd } from '../../src/store/zstd.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

/** A `.zst` file's whole decompressed content, every frame. */
const unzstd = async (file: string): Promise<Buffer> => Buffer.concat(await openZstd(file).toArray());

let mini: MiniHeroPaths;
const A = TEST_FILMS[0]!.movie_id;
const B = TEST_FILMS[1]!.movie_id;
beforeAll(async () => {
  mini = await sharedMiniHero();
});

/** A copy of the dataset root whose clips.jsonl line for film A is changed by `edit`. */
function editedData(edit: (clips: { clip_id: string; start: string; end: string }[]) => unknown[]): string {
  const dir = join(tempDir(), 'heroframe');
  cpSync(mini.data, dir, { recursive: true });
  const file = join(dir, 'data', 'clips.jsonl');
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  for (const l of lines) if (l.movie_id === A) l.clips = edit(l.clips);
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return dir;
}

describe('the timeline: frame_idx ↔ (clip, t_in_clip)', () => {
  it('buckets at k + 0.5 s over clips concatenated in order, with hh:mm:ss.fff times', () => {
    const tl = new Timeline('m', [
      { clip_id: 'a', start: '00:01:00.000', end: '00:01:02.300' }, // 2.3 s
      { clip_id: 'b', start: 100, end: 101.2 }, // 1.2 s
      { clip_id: 'c', start: '00:02:00.000', end: '00:02:01.000' },
    ]);
    expect(tl.frameCount).toBe(4); // midpoints 0.5, 1.5, 2.5, 3.5 < 4.5; 4.5 is not < 4.5
    expect([...tl.frames()]).toEqual([
      { frame_idx: 0, clip_id: 'a', t_in_clip: 0.5 },
      { frame_idx: 1, clip_id: 'a', t_in_clip: 1.5 },
      { frame_idx: 2, clip_id: 'b', t_in_clip: 0.2 },
      { frame_idx: 3, clip_id: 'c', t_in_clip: 0 },
    ]);
    for (const f of tl.frames()) expect(tl.frameOf(f.clip_id, f.t_in_clip)).toBe(f.frame_idx);
    expect(tl.frameOf('a', 0.7)).toBeUndefined();
  });
});

describe('track rebuild and verify on the mini set', () => {
  it('the mini set verifies clean, and its track has every frame of the timeline', async () => {
    const ds = await loadCore(mini.data);
    for (const m of [A, B]) {
      const files = readdirSync(join(mini.track, m)).filter((f) => f.endsWith('.jpg'));
      expect(files).toHaveLength(ds.timelines.get(m)!.frameCount);
    }
    const v = await verifyTrack({ track: mini.track, data: mini.data });
    expect(v.map((x) => [x.movie_id, x.status, x.matched])).toEqual([
      [A, 'ok', 24],
      [B, 'ok', 24],
    ]);
  });

  it('resumes: done films are skipped, an interrupted film (no completion record) is redone', async () => {
    const out = tempDir();
    cpSync(mini.track, out, { recursive: true });
    rmSync(join(out, B, DONE_FILE));
    rmSync(join(out, B, '3.jpg'));
    const before = statSync(join(out, A, '0.jpg')).mtimeMs;
    const r = await rebuildTrack({ lsmdc: mini.lsmdc, data: mini.data, out });
    expect(r.skipped).toEqual([A]);
    expect(r.done).toEqual([B]);
    expect(existsSync(join(out, B, '3.jpg'))).toBe(true);
    expect(statSync(join(out, A, '0.jpg')).mtimeMs).toBe(before);
  });

  it('a missing clip file fails that film with the reason; the others are done', async () => {
    const lsmdc = tempDir();
    cpSync(mini.lsmdc, lsmdc, { recursive: true });
    const clip = readdirSync(join(lsmdc, A)).sort()[2]!;
    rmSync(join(lsmdc, A, clip));
    const events: ProgressEvent[] = [];
    const r = await rebuildTrack({
      lsmdc,
      data: mini.data,
      out: tempDir(),
      jobs: 2,
      onProgress: (e) => events.push(e),
    });
    expect(r.done).toEqual([B]);
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0]!.movie_id).toBe(A);
    expect(r.failed[0]!.reason).toContain(`clip ${clip.replace('.mp4', '')} is named in clips.jsonl but`);
    // the one progress stream: every frame of B done, A's failure with its reason, then the end
    const core = await loadCore(mini.data);
    const total = [A, B].reduce((a, m) => a + core.timelines.get(m)!.frameCount, 0);
    expect(events[0]).toEqual({
      type: 'phase-started',
      phase: 'rebuild',
      total,
      unit: 'frames',
      note: '2 films',
    });
    expect(events.filter((e) => e.type === 'item-done')).toHaveLength(r.frames);
    expect(events.filter((e) => e.type === 'failure')).toEqual([
      { type: 'failure', phase: 'rebuild', item: A, reason: r.failed[0]!.reason },
    ]);
    expect(events.at(-1)).toEqual({ type: 'phase-finished', phase: 'rebuild', done: r.frames });
  });

  it('an error that is not a fault of the input (a bug) stops the run instead of failing a film quietly', async () => {
    // a JPEG quality sharp refuses: sharp's own plain Error, which is no KfbenchError
    const e = await rebuildTrack({ lsmdc: mini.lsmdc, data: mini.data, out: tempDir(), quality: 1000 }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(Error);
    expect(isKfbenchError(e)).toBe(false);
    expect((e as Error).message).toMatch(/quality/i);
  });

  it('shards partition the films deterministically', () => {
    const films = ['c', 'a', 'e', 'b', 'd'];
    const s1 = selectFilms(films, { shard: { k: 1, n: 2 } });
    const s2 = selectFilms(films, { shard: { k: 2, n: 2 } });
    expect(s1).toEqual(['a', 'c', 'e']);
    expect(s2).toEqual(['b', 'd']);
  });
});

describe('verify diagnoses each kind of broken track', () => {
  it('a clip skipped: matches up to a frame and not after, naming the clip', async () => {
    const ds = await loadCore(mini.data);
    const clips = ds.clips.get(A)!.clips;
    const skipped = clips[3]!.clip_id;
    const data = editedData((cs) => cs.filter((c) => c.clip_id !== skipped));
    // a root without the published index: the midpoint rule over the (wrong) clips builds the track
    rmSync(join(data, 'frame_track', 'track_index.jsonl.zst'));
    const out = tempDir();
    await rebuildTrack({ lsmdc: mini.lsmdc, data, out, movies: [A] });
    const [v] = await verifyTrack({ track: out, data: mini.data, movies: [A] });
    expect(v!.status).toBe('failed');
    expect(v!.diagnosis).toMatch(/matches up to frame \d+ and not after: a clip was skipped/);
    expect(v!.diagnosis).toContain(skipped);
  });

  it('two clips swapped: a stretch of mismatches that later match again, naming the clips', async () => {
    const ds = await loadCore(mini.data);
    const clips = ds.clips.get(A)!.clips;
    const [x, y] = [clips[2]!.clip_id, clips[3]!.clip_id];
    const data = editedData((cs) => {
      const c = [...cs];
      [c[2], c[3]] = [c[3]!, c[2]!];
      return c;
    });
    rmSync(join(data, 'frame_track', 'track_index.jsonl.zst')); // the rule builds the track
    const out = tempDir();
    await rebuildTrack({ lsmdc: mini.lsmdc, data, out, movies: [A] });
    const [v] = await verifyTrack({ track: out, data: mini.data, movies: [A] });
    expect(v!.status).toBe('failed');
    expect(v!.diagnosis).toMatch(/matching again after: clips out of order there/);
    expect(v!.diagnosis).toContain(x);
    expect(v!.diagnosis).toContain(y);
  });

  it('every frame taken one bucket late: matches at an offset of −1', async () => {
    const out = tempDir();
    cpSync(mini.track, out, { recursive: true });
    const n = readdirSync(join(out, A)).filter((f) => f.endsWith('.jpg')).length;
    for (let k = 0; k + 1 < n; k++) cpSync(join(mini.track, A, `${k + 1}.jpg`), join(out, A, `${k}.jpg`));
    const [v] = await verifyTrack({ track: out, data: mini.data, movies: [A] });
    expect(v!.status).toBe('failed');
    expect(v!.diagnosis).toMatch(/offset of −1 track frame.*a bucket late/);
  });

  it('another film: nothing matches, wrong footage', async () => {
    const out = tempDir();
    mkdirSync(join(out, A), { recursive: true });
    for (const f of readdirSync(join(mini.track, B))) cpSync(join(mini.track, B, f), join(out, A, f));
    const [v] = await verifyTrack({ track: out, data: mini.data, movies: [A] });
    expect(v!.status).toBe('failed');
    expect(v!.diagnosis).toMatch(/nothing matches .*wrong footage/);
  });
});

describe('hero mini', () => {
  it('never clears a folder it did not make', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'precious.txt'), 'keep me');
    const r = await runCli(['hero', 'mini', '--out', dir]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/exists, is not empty and is not a mini HeroFrame set/);
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('keep me');
  });
});

describe('hero track CLI', () => {
  it('rebuild with a missing clip exits 5 naming the film; verify of a broken track exits 3; make-index reproduces the published files', async () => {
    const lsmdc = tempDir();
    cpSync(mini.lsmdc, lsmdc, { recursive: true });
    rmSync(join(lsmdc, A, readdirSync(join(lsmdc, A)).sort()[1]!));
    const out = tempDir();
    const r = await runCli([
      'hero',
      'track',
      'rebuild',
      '--lsmdc',
      lsmdc,
      '--data',
      mini.data,
      '--out',
      out,
      '--jobs',
      '2',
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(new RegExp(`1 film\\(s\\) failed: ${A}`));
    const v = await runCli(['hero', 'track', 'verify', '--track', out, '--data', mini.data]);
    expect(v.code).toBe(3);
    expect(v.stdout).toMatch(new RegExp(`FAILED ${A}`));
    expect(v.stdout).toMatch(new RegExp(`ok     ${B}`));
    // make-index on the good track writes the same index as the mini set's: the same decompressed
    // content (zstd promises the content, not the compressor's bytes, which differ between releases)
    const data = join(tempDir(), 'heroframe');
    cpSync(mini.data, data, { recursive: true });
    rmSync(join(data, 'frame_track'), { recursive: true });
    const mk = await runCli(['hero', 'track', 'make-index', '--track', mini.track, '--data', data, '--json']);
    expect(mk.code, mk.stderr).toBe(0);
    for (const f of ['track_index.jsonl.zst', 'verify_dhash.jsonl.zst'])
      expect(
        (await unzstd(join(data, 'frame_track', f))).equals(await unzstd(join(mini.data, 'frame_track', f))),
        f,
      ).toBe(true);
  });
});
