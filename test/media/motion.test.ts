/** Camera motion per shot on generated clips with a known move (made here with ffmpeg from a shipped photo). */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ffmpegRun } from '../../src/media/ffmpeg.js';
import { type CameraMotion, cameraMotion, classifyMotion, globalMotion } from '../../src/media/motion.js';
import { probe } from '../../src/media/probe.js';
import { photoPath } from '../../src/synthetic/assets.js';
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

/**
 * The search as the module's comment states it, evaluated in full for every candidate (no index
 * maps, no early exit): the reference the fast search must equal on every frame pair.
 */
function referenceMotion(prev: Uint8Array, cur: Uint8Array, w: number, h: number) {
  const M = 8;
  const err = (map: (x: number, y: number) => [number, number]) => {
    let s = 0;
    let n = 0;
    for (let y = M; y < h - M; y++)
      for (let x = M; x < w - M; x++) {
        const [sx, sy] = map(x, y);
        const ix = Math.round(sx);
        const iy = Math.round(sy);
        if (ix < 0 || iy < 0 || ix >= w || iy >= h) continue;
        s += Math.abs(cur[y * w + x]! - prev[iy * w + ix]!);
        n++;
      }
    return n ? s / n : Number.POSITIVE_INFINITY;
  };
  const still = err((x, y) => [x, y]);
  let best = { dx: 0, dy: 0, scale: 1 };
  let bestErr = still;
  const consider = (step: { dx: number; dy: number; scale: number }, e: number) => {
    if (e < bestErr - 1e-9) {
      bestErr = e;
      best = step;
    }
  };
  for (let dy = -6; dy <= 6; dy++)
    for (let dx = -6; dx <= 6; dx++)
      if (dx || dy)
        consider(
          { dx, dy, scale: 1 },
          err((x, y) => [x + dx, y + dy]),
        );
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  for (const s of [0.9, 0.92, 0.94, 0.96, 0.98, 1.02, 1.04, 1.06, 1.08, 1.1])
    consider(
      { dx: 0, dy: 0, scale: s },
      err((x, y) => [cx + (x - cx) / s, cy + (y - cy) / s]),
    );
  return still - bestErr < 0.5 ? { dx: 0, dy: 0, scale: 1 } : best;
}

describe('globalMotion equals the full search', () => {
  it('on shifted, zoomed, noisy and unrelated frame pairs, with or without a hint', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const w = 96;
    const h = 54;
    let checked = 0;
    for (let trial = 0; trial < 20; trial++) {
      const prev = new Uint8Array(w * h);
      const smooth = trial % 3 === 0;
      for (let i = 0; i < prev.length; i++)
        prev[i] = smooth
          ? Math.round(128 + 100 * Math.sin((i % w) / 7 + Math.floor(i / w) / 5))
          : Math.floor(rnd() * 256);
      const dx = Math.floor(rnd() * 13) - 6;
      const dy = Math.floor(rnd() * 13) - 6;
      const zoom = trial % 5 === 0 ? 0.92 + rnd() * 0.16 : 1;
      const noise = trial % 4 === 0 ? 40 : trial % 4 === 1 ? 4 : 0;
      const cur = new Uint8Array(w * h);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const sx = Math.min(w - 1, Math.max(0, Math.round((w - 1) / 2 + (x - (w - 1) / 2) / zoom + dx)));
          const sy = Math.min(h - 1, Math.max(0, Math.round((h - 1) / 2 + (y - (h - 1) / 2) / zoom + dy)));
          cur[y * w + x] = Math.min(255, Math.max(0, prev[sy * w + sx]! + Math.round((rnd() - 0.5) * noise)));
        }
      const want = referenceMotion(prev, cur, w, h);
      expect(globalMotion(prev, cur, w, h), `trial ${trial}`).toEqual(want);
      // a hint (the previous pair's step) only speeds the search: right, wrong or a zoom, same choice
      for (const hint of [
        want,
        { dx: -dx, dy: dy, scale: 1 },
        { dx: 6, dy: -6, scale: 1 },
        { dx: 0, dy: 0, scale: 1.1 },
      ])
        expect(globalMotion(prev, cur, w, h, hint), `trial ${trial}, hint ${JSON.stringify(hint)}`).toEqual(
          want,
        );
      checked++;
    }
    expect(checked).toBe(20);
  });
});
