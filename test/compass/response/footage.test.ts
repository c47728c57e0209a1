/**
 * Real footage, round 3 (issue 48 items 3 and 4), fixtures from scripts/make-footage-fixtures.sh.
 *  - A broadcast capture begun mid-GOP (footage/broadcast-midgop.m2t) is scored, not refused: its
 *    frames are those that decode (source frames 24–99), and keyframes cut from it are placed at
 *    their frames. Before issue 48 the scan failed: "video is
 *    damaged or truncated (Warning MVs not available)".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreResponse } from '../../../src/compass/response/report.js';
import { scanVideo } from '../../../src/compass/scan/scan.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ffmpegRun } from '../../../src/media/ffmpeg.js';
import { frameTime, probe } from '../../../src/media/probe.js';
import { media, tempDir } from '../../support/paths.js';

const dir = tempDir('footage-');

/** Cut frame n of a video to a PNG with ffmpeg, as a user takes a still from the clip. */
async function cut(video: string, n: number): Promise<string> {
  const out = join(dir, `${video.split('/').pop()}-${n}.png`);
  await ffmpegRun(
    ['-y', '-i', video, '-vf', `select=eq(n\\,${n})`, '-fps_mode', 'passthrough', '-frames:v', '1', out],
    video,
  );
  return out;
}

/** Stage 2 riding along stage 1 (25 fps ≤ twice the 24 fps cap), and by windows read afterwards. */
const READS = [
  { read: 'riding along stage 1', fpsCap: 24 },
  { read: 'reading its windows', fpsCap: 10 },
];

describe('a broadcast capture begun mid-GOP is scored', () => {
  it.each(READS)('keyframes cut from it are placed at their frames — stage 2 $read', async ({ fpsCap }) => {
    const video = media('footage/broadcast-midgop.m2t');
    // stills of the capture's frames 16 and 46 (source frames 40 and 70), as a user takes them
    const shots = [{ frame: 16 }, { frame: 46 }];
    const images = await Promise.all(shots.map((s) => cut(video, s.frame)));
    const keyframes = images.map((image, i) => ({ kf_id: `kf${i + 1}`, image }));
    const info = await probe(video);
    const target = (n: number) => frameTime(info, n) + 0.5 / info.fps;
    const embedder = await createBuiltinEmbedder();
    const scan = await scanVideo({ video, keyframes }, embedder, { fpsCap });
    expect(scan.video).toMatchObject({ frames: 76, decoding: { dropped: 8, concealed: 1 } });
    const c = {
      case_id: 'broadcast',
      structure: 'one_take' as const,
      keyframes: shots.map((s, i) => ({
        kf_id: `kf${i + 1}`,
        image: images[i]!,
        t_target_s: target(s.frame),
      })),
    };
    const r = scoreResponse(c, scan, embedder);
    for (const [i, s] of shots.entries()) {
      expect(scan.refined?.[i]?.frame, `kf${i + 1}`).toBe(s.frame);
      // the frame's own presentation time: the frame on screen at the target (issue 56)
      expect(r.keyframes[i]!.t_best_s!).toBeCloseTo(frameTime(info, s.frame), 6);
    }
    expect(r.metrics.presence).toBe(1);
    expect(r.metrics.localization).toBe(1);
    await embedder.close();
  });
});

interface Twin {
  file: string;
  twin: string;
  /** Frames cut from the twin as keyframes. */
  frames: number[];
  /** The largest difference in fidelity allowed (0: the same pixels, a remux). */
  fidelity: number;
}

const TWINS: Twin[] = [
  { file: 'recorder.webm', twin: 'recorder-remux.webm', frames: [5, 20, 40], fidelity: 0 },
  { file: 'mpeg4.avi', twin: 'mpeg4-remux.mp4', frames: [5, 20, 40], fidelity: 0 },
  // the same frames encoded sideways and upright: re-encoding noise (≈ 45 dB) against an exact copy
  // (the keyframes are cut from the twin, which scores fidelity 1)
  { file: 'phone.mp4', twin: 'phone-upright.mp4', frames: [5, 20, 40], fidelity: 0.05 },
  // deinterlaced by kfbench (bwdif) and by the twin's maker, then re-encoded
  { file: 'interlaced.m2t', twin: 'interlaced-deint.mp4', frames: [6, 20, 33], fidelity: 0.02 },
];

describe.each(TWINS)('$file against its twin $twin', (t) => {
  it.each(READS)('the same times, placements and scores — stage 2 $read', async ({ fpsCap }) => {
    const twin = media(`footage/${t.twin}`);
    const file = media(`footage/${t.file}`);
    const images = await Promise.all(t.frames.map((n) => cut(twin, n)));
    const keyframes = images.map((image, i) => ({ kf_id: `kf${i + 1}`, image }));
    const info = await probe(twin);
    const c = {
      case_id: t.file,
      structure: 'one_take' as const,
      keyframes: t.frames.map((n, i) => ({
        kf_id: `kf${i + 1}`,
        image: images[i]!,
        t_target_s: frameTime(info, n) + 0.5 / info.mean_fps,
      })),
    };
    const embedder = await createBuiltinEmbedder();
    const [a, b] = [
      await scanVideo({ video: file, keyframes }, embedder, { fpsCap }),
      await scanVideo({ video: twin, keyframes }, embedder, { fpsCap }),
    ];
    const [ra, rb] = [scoreResponse(c, a, embedder), scoreResponse(c, b, embedder)];
    await embedder.close();
    // times: the video's frames and duration, every sampled frame's time, each shot
    expect(a.video).toEqual(b.video);
    expect(a.sample_fps).toBe(b.sample_fps);
    expect(a.times).toEqual(b.times);
    expect(a.shots).toEqual(b.shots);
    // placements: each keyframe's frame, hold and time
    expect(a.refined?.map((r) => r && [r.frame, r.hold])).toEqual(t.frames.map((n) => [n, [n, n]]));
    expect(b.refined?.map((r) => r && [r.frame, r.hold])).toEqual(t.frames.map((n) => [n, [n, n]]));
    expect(ra.keyframes.map((k) => k.t_best_s)).toEqual(rb.keyframes.map((k) => k.t_best_s));
    // scores: every metric but fidelity alike; fidelity alike up to the twin's re-encoding
    const { fidelity: fa, ...restA } = ra.metrics;
    const { fidelity: fb, ...restB } = rb.metrics;
    expect(restA).toEqual(restB);
    expect(Math.abs((fa ?? 0) - (fb ?? 0)), `fidelity ${fa} against ${fb}`).toBeLessThanOrEqual(t.fidelity);
  });
});
