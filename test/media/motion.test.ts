/** Camera motion per shot on generated clips with a known move (made here with ffmpeg from a shipped photo). */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { photoPath } from '../../src/dev/assets.js';
import { ffmpegRun } from '../../src/media/ffmpeg.js';
import { type CameraMotion, cameraMotion, classifyMotion, globalMotion } from '../../src/media/motion.js';
import { probe } from '../../src/media/video.js';
import { tempDir } from '../support/paths.js';

const CLIPS: Record<string, { vf: string; want: CameraMotion }> = {
  static: { vf: 'scale=320:180', want: 'static' },
  pan_right: { vf: "scale=640:360,crop=320:180:x='40+t*60':y=90", want: 'pan right' },
  pan_left: { vf: "scale=640:360,crop=320:180:x='280-t*60':y=90", want: 'pan left' },
  tilt_up: { vf: "scale=640:360,crop=320:180:x=160:y='150-t*40'", want: 'tilt up' },
  zoom_in: {
    vf: "scale=1280:720,zoompan=z='1+0.008*on':d=1:x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=320x180:fps=24",
    want: 'zoom in',
  },
  zoom_out: {
    vf: "scale=1280:720,zoompan=z='1.5-0.008*on':d=1:x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=320x180:fps=24",
    want: 'zoom out',
  },
};

let dir = '';
beforeAll(async () => {
  dir = tempDir('kfbench-motion-');
  for (const [name, c] of Object.entries(CLIPS))
    await ffmpegRun(
      [
        '-y',
        '-loop',
        '1',
        '-framerate',
        '24',
        '-i',
        photoPath('astronaut.png'),
        '-vf',
        `${c.vf},format=yuv420p`,
        '-frames:v',
        '48',
        join(dir, `${name}.mp4`),
      ],
      name,
    );
});

describe('camera motion', () => {
  for (const [name, c] of Object.entries(CLIPS))
    it(`${name} is classified "${c.want}"`, async () => {
      const info = await probe(join(dir, `${name}.mp4`));
      const [m] = await cameraMotion(info, [{ start_s: 0, end_s: info.duration_s }]);
      expect(m!.motion).toBe(c.want);
    });

  it('two shots are summarised apart: steps across the cut are not counted', async () => {
    const out = join(dir, 'two.mp4');
    await ffmpegRun(
      [
        '-y',
        '-i',
        join(dir, 'static.mp4'),
        '-i',
        join(dir, 'pan_right.mp4'),
        '-filter_complex',
        '[0][1]concat=n=2:v=1',
        out,
      ],
      out,
    );
    const info = await probe(out);
    const m = await cameraMotion(info, [
      { start_s: 0, end_s: 2 },
      { start_s: 2, end_s: 4 },
    ]);
    expect(m.map((x) => x.motion)).toEqual(['static', 'pan right']);
  });

  it('recovers a known translation exactly and classifies by rate', () => {
    const w = 64;
    const h = 40;
    const prev = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) prev[y * w + x] = (x * 37 + y * 91 + ((x * y) % 7) * 20) % 256;
    const cur = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) cur[y * w + x] = prev[Math.min(h - 1, y + 2) * w + Math.min(w - 1, x + 3)]!;
    expect(globalMotion(prev, cur, w, h)).toEqual({ dx: 3, dy: 2, scale: 1 });
    expect(classifyMotion([{ dx: 0, dy: 0, scale: 1 }], 1, w, h).motion).toBe('static');
    expect(classifyMotion([{ dx: 0, dy: 0, scale: 0.9 }], 1, w, h).motion).toBe('zoom out');
  });
});
