/**
 * `--jobs N` scans in worker threads (scan/pool.ts): the rows are those of one job at a time, a bad
 * video makes the same failed row, other errors keep their class, the cache stays in the calling
 * thread, and an abort leaves no worker thread and no ffmpeg/ffprobe process behind.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LoadedCase, loadCases, PROMPT_MODES, videoPath } from '../../../src/compass/cases/cases.js';
import type { ScoreInput } from '../../../src/compass/response/input.js';
import { scoreModels } from '../../../src/compass/response/models.js';
import { ScanCache } from '../../../src/compass/scan/cache.js';
import { DEFAULT_SCAN_OPTIONS } from '../../../src/compass/scan/options.js';
import { ScanPool, scanWorkerCounts } from '../../../src/compass/scan/pool.js';
import { scanVideo } from '../../../src/compass/scan/scan.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import type { Embedder } from '../../../src/embed/embedder.js';
import { loadOnnxEmbedder } from '../../../src/embed/onnx.js';
import { BackendError, BadInputError, CancelledError } from '../../../src/errors.js';
import type { MiniCompassPaths } from '../../../src/synthetic/mini-compass/build.js';
import { sharedMiniCompass } from '../../support/mini-compass.js';
import { ROOT, tempDir } from '../../support/paths.js';

const embedder = createBuiltinEmbedder();
let mini: MiniCompassPaths;
let cases: LoadedCase[] = [];
let dir: string;

beforeAll(async () => {
  mini = await sharedMiniCompass();
  cases = await loadCases(mini.cases);
  dir = tempDir();
});

const folder = (o: Partial<ScoreInput> = {}): ScoreInput => ({
  cases,
  videos: mini.videos,
  models: ['faithful', 'swapped'],
  modes: ['minimal'],
  embedder,
  ...o,
});

/** The ffmpeg/ffprobe processes this test process has started that still exist (zombies included). */
function ffmpegChildren(): string[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,stat=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch (e) {
    // ps exits 1 when it lists nothing
    if ((e as { status?: number }).status !== 1) throw e;
    out = '';
  }
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /ffmpeg|ffprobe/.test(l));
}

describe('scans in worker threads (--jobs 2)', () => {
  it('give the same rows, in the same order, as one job in this thread; the cache is read and written here', async () => {
    const one = await scoreModels(folder({ jobs: 1 }));
    const two = await scoreModels(folder({ jobs: 2 }));
    expect(one.rows).toHaveLength(8);
    expect(two.rows).toEqual(one.rows);
    expect(two).toMatchObject({ scanned: 8, cached: 0, missing: [], failed: [] });
    expect(two.timings.decode_embed_s).toBeGreaterThan(0);
    expect(scanWorkerCounts()).toEqual({ live: 0, terminated: 0 });

    const cache = new ScanCache(join(dir, 'scans.sqlite'));
    try {
      const cold = await scoreModels(folder({ jobs: 2, cache, modes: [...PROMPT_MODES] }));
      const warm = await scoreModels(folder({ jobs: 2, cache, modes: [...PROMPT_MODES] }));
      expect(cold.rows.filter((r) => r.prompt_mode === 'minimal')).toEqual(one.rows);
      expect(warm.rows).toEqual(cold.rows);
      expect(cold.scanned + cold.cached).toBe(16);
      expect(warm).toMatchObject({ scanned: 0, cached: 16 });
      expect(cache.misses).toBe(cold.scanned);
    } finally {
      cache.close();
    }
  });

  it('an ONNX embedder is made again in each worker from its spec, with the same scans', async () => {
    const onnx: Embedder = await loadOnnxEmbedder(join(ROOT, 'test', 'fixtures', 'embed', 'tiny-vit.onnx'), {
      threads: 1,
    });
    try {
      const c = cases[0]!;
      const input = {
        video: videoPath(mini.videos, 'faithful', c.case_id, 'minimal'),
        keyframes: c.keyframes,
      };
      const pool = ScanPool.open(onnx, 2)!;
      expect(pool.embedder).toEqual(onnx.spec); // threads set by the caller: kept
      try {
        expect(await pool.scan(input, DEFAULT_SCAN_OPTIONS, {})).toEqual(await scanVideo(input, onnx));
      } finally {
        await pool.close();
      }
    } finally {
      await onnx.close();
    }
  });

  it('a bad video makes the same failed row as in this thread: a BadInputError with its file and message', async () => {
    const videos = join(dir, 'videos');
    mkdirSync(join(videos, 'faithful'), { recursive: true });
    for (const c of cases.slice(1))
      symlinkSync(
        videoPath(mini.videos, 'faithful', c.case_id, 'minimal'),
        videoPath(videos, 'faithful', c.case_id, 'minimal'),
      );
    const bad = videoPath(videos, 'faithful', cases[0]!.case_id, 'minimal');
    writeFileSync(bad, 'not a video');
    const o = folder({ videos, models: ['faithful'] });
    const one = await scoreModels({ ...o, jobs: 1 });
    const two = await scoreModels({ ...o, jobs: 2 });
    expect(one.failed).toHaveLength(1);
    expect(one.failed[0]!.video).toBe(bad);
    expect(two.failed).toEqual(one.failed);
    expect(two.rows).toEqual(one.rows);
    expect(two.rows[0]).toMatchObject({ status: 'failed' });

    const inThread = await scanVideo({ video: bad, keyframes: cases[0]!.keyframes }, embedder).catch(
      (e: unknown) => e,
    );
    const pool = ScanPool.open(embedder, 2)!;
    try {
      const e = await pool
        .scan({ video: bad, keyframes: cases[0]!.keyframes }, DEFAULT_SCAN_OPTIONS, {})
        .catch((x: unknown) => x);
      expect(inThread).toBeInstanceOf(BadInputError);
      expect(e).toBeInstanceOf(BadInputError);
      expect((e as BadInputError).message).toBe((inThread as BadInputError).message);
      expect((e as BadInputError).file).toBe(bad);
      expect((e as BadInputError).code).toBe('BAD_INPUT');
    } finally {
      await pool.close();
    }
  });

  it('any other error keeps its class and stops the run, as in this thread', async () => {
    const saved = process.env.FFPROBE_PATH;
    // workers copy the environment when they start: this run's cannot find ffprobe
    process.env.FFPROBE_PATH = join(dir, 'no-such-ffprobe');
    try {
      const one = await scoreModels(folder({ jobs: 1 })).catch((e: unknown) => e);
      const two = await scoreModels(folder({ jobs: 2 })).catch((e: unknown) => e);
      expect(one).toBeInstanceOf(BackendError);
      expect(two).toBeInstanceOf(BackendError);
      expect((two as BackendError).message).toBe((one as BackendError).message);
      expect((two as BackendError).code).toBe('BACKEND');
    } finally {
      if (saved === undefined) delete process.env.FFPROBE_PATH;
      else process.env.FFPROBE_PATH = saved;
    }
    expect(scanWorkerCounts()).toEqual({ live: 0, terminated: 0 });
  });

  it('an abort mid-run rejects with its reason and leaves no worker and no ffmpeg/ffprobe process behind', async () => {
    const ac = new AbortController();
    let started = 0;
    const r = await scoreModels(
      folder({
        models: ['faithful', 'swapped', 'mistimed'],
        modes: [...PROMPT_MODES],
        jobs: 2,
        signal: ac.signal,
        // the first video done: the other worker is in the middle of one
        onProgress: (e) => {
          if (e.type === 'item-done' && ++started === 1) ac.abort(new CancelledError('stop here'));
        },
      }),
    ).catch((e: unknown) => e);
    expect(r).toBeInstanceOf(CancelledError);
    expect((r as CancelledError).message).toBe('stop here');
    expect(scanWorkerCounts()).toEqual({ live: 0, terminated: 0 });
    expect(ffmpegChildren()).toEqual([]);
  });

  it("an abort kills the running scan's processes in its worker before the pool has closed", async () => {
    // ffprobe opening a FIFO that nobody writes waits for ever: a process that only a kill ends
    const fifo = join(dir, 'never-written.mp4');
    execFileSync('mkfifo', [fifo]);
    const pool = ScanPool.open(embedder, 2)!;
    const ac = new AbortController();
    const scan = pool
      .scan({ video: fifo, keyframes: cases[0]!.keyframes }, DEFAULT_SCAN_OPTIONS, {}, undefined, ac.signal)
      .catch((e: unknown) => e);
    while (!ffmpegChildren().some((l) => l.includes('ffprobe'))) await new Promise((r) => setTimeout(r, 20));
    ac.abort(new CancelledError('stop here'));
    expect(await scan).toBeInstanceOf(CancelledError);
    await pool.close();
    expect(scanWorkerCounts()).toEqual({ live: 0, terminated: 0 });
    expect(ffmpegChildren()).toEqual([]);
  });
});
