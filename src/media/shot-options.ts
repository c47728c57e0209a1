/** The shot detector's options (each a CLI flag) and the shapes of what it finds (`shots.ts`). */

export interface ShotOptions {
  cutThreshold: number;
  cutRatio: number;
  window: number;
  gradualLow: number;
  gradualRatio: number;
  baseline_s: number;
  gradualThreshold: number;
  blendMax: number;
  coarseBlendMax: number;
  maxGradual_s: number;
  minShot_s: number;
}

export const DEFAULT_SHOT_OPTIONS: ShotOptions = {
  cutThreshold: 0.3,
  cutRatio: 3,
  window: 8,
  gradualLow: 0.012,
  gradualRatio: 2,
  baseline_s: 4,
  gradualThreshold: 0.25,
  blendMax: 0.3,
  coarseBlendMax: 0.25,
  maxGradual_s: 4,
  minShot_s: 0.25,
};

export interface Transition {
  kind: 'cut' | 'gradual';
  /** For a cut: the first frame of the new shot (start = end). For a gradual: first and last frame of the blend. */
  start_frame: number;
  end_frame: number;
}

export interface Shot {
  start_frame: number;
  /** Exclusive. */
  end_frame: number;
  start_s: number;
  end_s: number;
}

export interface ShotResult {
  shots: Shot[];
  transitions: Transition[];
  frames: number;
  fps: number;
}
