/**
 * The first check a sceptical researcher runs (issue 56): a video scored against keyframes cut
 * from itself. A 9 s 1280×720 clip of three sources at 24 fps (a test card, a Mandelbrot zoom, slow
 * gradients) made here with ffmpeg; keyframes cut at frames 36, 108 and 180 with
 * `ffmpeg -vf select=eq(n\,N)`, as a user cuts them; a one-take case with targets 1.5, 4.5, 7.5 s.
 * Before: fidelity 0.883 (cosine 0.90 on the test card against its own frame), every keyframe
 * placed at the middle of its frame (1.5208 s, localization 0.986), a copy delayed by 12 frames
 * 0.5208 s later, a half-size copy fidelity 0.886.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../../../src/compass/cases/cases.js';
import { scoreResponse } from '../../../src/compass/response/report.js';
import { scanVideo } from '../../../src/compass/scan/scan.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ffmpegRun } from '../../../src/media/ffmpeg.js';
import { tempDir } from '../../support/paths.js';

const dir = tempDir('exact-copy-');
const CLIP = join(dir, 'clip.mp4');
const FRAMES = [36, 108, 180];
const TARGETS = [1.5, 4.5, 7.5];

async function made(): Promise<string[]> {
  await ffmpegRun(
    [
      ...['-y', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=24:d=3'],
      ...[
        '-f',
        'lavfi',
        '-i',
        'mandelbrot=s=1280x720:r=24',
        '-f',
        'lavfi',
        '-i',
        'gradients=s=1280x720:r=24:speed=0.02',
      ],
      ...[
        '-filter_complex',
        '[1]trim=duration=3,setpts=PTS-STARTPTS[b];[2]trim=duration=3,setpts=PTS-STARTPTS[c];[0][b][c]concat=n=3:v=1[v]',
      ],
      ...['-map', '[v]', '-c:v', 'libx264', '-crf', '18', '-pix_fmt', 'yuv420p', CLIP],
    ],
    CLIP,
  );
  return Promise.all(
    FRAMES.map(async (n) => {
      const png = join(dir, `kf${n}.png`);
      await ffmpegRun(['-y', '-i', CLIP, '-vf', `select=eq(n\\,${n})`, '-frames:v', '1', png], CLIP);
      return png;
    }),
  );
}

const ready = made();

async function score(video: string) {
  const images = await ready;
  const c = {
    case_id: 'self',
    structure: 'one_take',
    keyframes: images.map((image, i) => ({ kf_id: `k${i + 1}`, image, t_target_s: TARGETS[i]! })),
  } as unknown as LoadedCase;
  const embedder = createBuiltinEmbedder();
  const scan = await scanVideo({ video, keyframes: c.keyframes }, embedder);
  return scoreResponse(c, scan, embedder);
}

describe('a video scored against keyframes cut from itself', () => {
  it('scores 1 on every metric, each keyframe placed at its own frame: cosine 1, PSNR ∞', async () => {
    const r = await score(CLIP);
    expect(r.metrics).toEqual({
      presence: 1,
      fidelity: 1,
      ordering: 1,
      localization: 1,
      persistence: 1,
      uniqueness: 1,
    });
    for (const [i, k] of r.keyframes.entries()) {
      expect(k.cos).toBe(1);
      expect(k.psnr_db).toBeNull(); // identical: infinite
      expect(k.t_best_s).toBe(TARGETS[i]);
      expect(k.t_peak_s).toBe(TARGETS[i]);
    }
  });

  it('a copy delayed by 12 frames places every keyframe exactly 0.5 s later', async () => {
    const late = join(dir, 'late.mp4');
    await ffmpegRun(
      ['-y', '-i', CLIP, '-vf', 'tpad=start=12:start_mode=clone', '-c:v', 'libx264', '-crf', '18', late],
      late,
    );
    const r = await score(late);
    for (const [i, k] of r.keyframes.entries()) {
      // f*, the frame itself, exactly 12 frames later
      expect(k.t_peak_s).toBeCloseTo(TARGETS[i]! + 0.5, 9);
      // t(k): the held frame nearest the target — f* itself, or on the calm gradients an earlier
      // frame that is the same picture (within 2 dB of f*'s match, above 48 dB): the gradients
      // held over their target were shown at it (issue 56 item 3), never before it
      expect(k.t_best_s!).toBeLessThanOrEqual(k.t_peak_s + 1e-9);
      expect(k.t_best_s!).toBeGreaterThanOrEqual(TARGETS[i]! - 1e-9);
      if (i < 2) expect(k.t_best_s).toBeCloseTo(TARGETS[i]! + 0.5, 9);
    }
    expect(r.metrics.fidelity).toBeGreaterThanOrEqual(0.99);
  });

  it('a half-size copy re-encoded at CRF 28 finds every keyframe, fidelity ≥ 0.9', async () => {
    const half = join(dir, 'half.mp4');
    await ffmpegRun(['-y', '-i', CLIP, '-vf', 'scale=640:360', '-c:v', 'libx264', '-crf', '28', half], half);
    const r = await score(half);
    expect(r.metrics.presence).toBe(1);
    expect(r.metrics.fidelity).toBeGreaterThanOrEqual(0.9);
    expect(r.metrics.localization).toBe(1);
  });
});
