import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { media } from './paths.js';

export interface MediaReferences {
  dhash: Record<string, string>;
  compare: {
    a: string;
    b: string;
    psnr_db: number | null;
    identical: boolean;
    ssim: number;
    ffmpeg_psnr_db: number | null;
  }[];
  video_dhash: { video: string; frame: number; dhash: string; mean_luma: number }[];
  timing_ms: Record<string, number>;
}

export function mediaReferences(): MediaReferences {
  return JSON.parse(readFileSync(media('references.json'), 'utf8')) as MediaReferences;
}

export interface ShotTruth {
  frames: number;
  cuts: number[];
  gradual: { start_frame: number; end_frame: number }[];
  static?: [number, number];
  fast_motion?: [number, number];
}

/**
 * A detection matches its truth: every cut within ±1 frame, each gradual transition once with its
 * start and end within one frame (issue 48 item 1), nothing else, and one shot per boundary.
 */
export function expectShotsMatch(
  r: {
    transitions: readonly { kind: string; start_frame: number; end_frame: number }[];
    shots: readonly unknown[];
  },
  t: ShotTruth,
): void {
  const cuts = r.transitions.filter((x) => x.kind === 'cut').map((x) => x.start_frame);
  const gradual = r.transitions.filter((x) => x.kind === 'gradual');
  expect(cuts).toHaveLength(t.cuts.length);
  for (const [i, c] of t.cuts.entries()) expect(Math.abs(cuts[i]! - c)).toBeLessThanOrEqual(1);
  expect(gradual).toHaveLength(t.gradual.length);
  for (const [i, g] of t.gradual.entries()) {
    const got = gradual[i]!;
    const bounds = `${got.start_frame}–${got.end_frame} for ${g.start_frame}–${g.end_frame}`;
    expect(Math.abs(got.start_frame - g.start_frame), bounds).toBeLessThanOrEqual(1);
    expect(Math.abs(got.end_frame - g.end_frame), bounds).toBeLessThanOrEqual(1);
  }
  expect(r.shots).toHaveLength(t.cuts.length + t.gradual.length + 1);
}

export function shotTruth(): Record<string, ShotTruth> {
  return JSON.parse(readFileSync(media('truth.json'), 'utf8')) as Record<string, ShotTruth>;
}
