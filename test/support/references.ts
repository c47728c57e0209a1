import { readFileSync } from 'node:fs';
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

export function shotTruth(): Record<string, ShotTruth> {
  return JSON.parse(readFileSync(media('truth.json'), 'utf8')) as Record<string, ShotTruth>;
}
