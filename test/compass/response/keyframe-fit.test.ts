/**
 * `--keyframe-fit` (issue 28): a generator whose output has another aspect ratio than its keyframe
 * crops the keyframe to its own (as VBench-I2V crops its inputs). Here the video is the 640×360
 * counter fixture centre-cropped to 480×360 by ffmpeg, and the keyframe is an uncropped 640×360
 * frame of the source: fitted by a centre crop (the default) it is that frame again; stretched (as
 * kfbench did before) it is a distorted picture, lower in PSNR, SSIM and cosine.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanVideo } from '../../../src/compass/scan/scan.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ffmpegRun } from '../../../src/media/ffmpeg.js';
import { media, tempDir } from '../../support/paths.js';

const dir = tempDir('keyframe-fit-');

describe('keyframe fit', () => {
  it('crops a keyframe of another aspect ratio to the video’s by default; stretch and pad score it lower', async () => {
    const src = media('staged/counter-10.mp4');
    const video = join(dir, 'counter-4x3.mp4');
    await ffmpegRun(
      ['-i', src, '-vf', 'crop=480:360', '-c:v', 'libx264', '-crf', '18', '-pix_fmt', 'yuv420p', video],
      src,
    );
    const image = join(dir, 'kf-19.png');
    await ffmpegRun(
      ['-i', src, '-vf', 'select=eq(n\\,19)', '-fps_mode', 'passthrough', '-frames:v', '1', image],
      src,
    );
    const embedder = createBuiltinEmbedder();
    const input = { video, keyframes: [{ kf_id: 'kf', image }] };
    const crop = await scanVideo(input, embedder);
    const stretch = await scanVideo(input, embedder, { keyframeFit: 'stretch' });
    const pad = await scanVideo(input, embedder, { keyframeFit: 'pad' });
    const refined = crop.refined?.[0];
    expect(refined?.frame).toBe(19);
    expect(refined!.psnr_db === null || refined!.psnr_db >= 40).toBe(true);
    for (const other of [stretch, pad]) {
      expect(other.peaks[0]!.cos).toBeLessThan(crop.peaks[0]!.cos);
      const p = other.refined?.[0] ?? other.peaks[0]!;
      expect(p.psnr_db ?? Number.POSITIVE_INFINITY).toBeLessThan(30);
      expect(p.ssim).toBeLessThan(refined!.ssim);
    }
  });
});
