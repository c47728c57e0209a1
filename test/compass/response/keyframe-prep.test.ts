/**
 * Keyframes prepared once per run (keyframe-prep.ts, issue 33): the second video of a case meets
 * the kept keyframes, and its scan is the one a fresh embedder (nothing kept) makes; a keyframe
 * file rewritten between two scans is prepared again, not served from what was kept.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanVideo } from '../../../src/compass/scan/scan.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ffmpegRun } from '../../../src/media/ffmpeg.js';
import { media, tempDir } from '../../support/paths.js';

const dir = tempDir('keyframe-prep-');

async function frameOf(video: string, n: number, out: string): Promise<string> {
  await ffmpegRun(
    ['-i', video, '-vf', `select=eq(n\\,${n})`, '-fps_mode', 'passthrough', '-frames:v', '1', out],
    video,
  );
  return out;
}

describe('keyframes prepared once per run', () => {
  it('a scan with kept keyframes is the scan of a fresh embedder; a rewritten keyframe is prepared again', async () => {
    const video = media('staged/counter-10.mp4');
    const a = await frameOf(video, 7, join(dir, 'a.png'));
    const b = await frameOf(video, 29, join(dir, 'b.png'));
    const kf = join(dir, 'kf.png');
    copyFileSync(a, kf);
    const input = { video, keyframes: [{ kf_id: 'kf', image: kf }] };
    const kept = createBuiltinEmbedder();
    const first = await scanVideo(input, kept);
    const second = await scanVideo(input, kept);
    const fresh = await scanVideo(input, createBuiltinEmbedder());
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(JSON.stringify(fresh)).toBe(JSON.stringify(first));
    expect(first.refined?.[0]?.frame).toBe(7);
    // the same path, another picture: found at its own frame
    copyFileSync(b, kf);
    const rewritten = await scanVideo(input, kept);
    expect(rewritten.refined?.[0]?.frame).toBe(29);
    expect(JSON.stringify(rewritten)).toBe(JSON.stringify(await scanVideo(input, createBuiltinEmbedder())));
  });
});
