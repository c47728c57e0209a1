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
import { scanVideo } from '../../../src/compass/response/scan.js';
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
      expect(r.keyframes[i]!.t_best_s!).toBeCloseTo(target(s.frame), 3);
    }
    expect(r.metrics.presence).toBe(1);
    expect(r.metrics.localization).toBeGreaterThanOrEqual(0.95);
    await embedder.close();
  });
});
