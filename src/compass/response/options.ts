import { DEFAULT_HOLD_EPS } from '../scan/options.js';

/** Every constant of the keyframe-response metrics (SPEC §3.2), each a CLI flag with this default. */
export interface ResponseOptions {
  /** Match threshold on cosine similarity; undefined = the embedder's own (builtin 0.76, DINOv3 0.80). */
  gamma: number | undefined;
  /** A frame belongs to a keyframe's hold when its similarity is within this of the best. */
  holdEps: number;
  /** Pixel score: PSNR anchors (dB) and SSIM anchors. */
  psnrLow: number;
  psnrHigh: number;
  ssimLow: number;
  ssimHigh: number;
  /** KFS = fusion·pixel + (1 − fusion)·cos, both on one frame (the KFS frame, `kfsFrame`). */
  fusion: number;
  /**
   * The KFS frame, one per keyframe, whose cosine and pixel score KFS fuses (fidelity.ts): `tie`
   * (default) — stage 2's f*(k) when stage 1 sampled it and its cosine is within `kfsTie` of the
   * best, else the highest-cosine frame; `peak` — always the highest-cosine frame (the seed's
   * words taken literally).
   */
  kfsFrame: KfsFrame;
  /** `tie`: how far below the best cosine f*(k)'s may lie and still be the KFS frame. */
  kfsTie: number;
  /**
   * t(k) (placement.ts): `hold` (default) — the hold's frame nearest the keyframe's target time (a
   * video that holds the keyframe over its target showed it at its target), f*(k)'s own time where
   * there is no target; `peak` — f*(k)'s own time always (the argmax taken literally).
   */
  placeAt: PlaceAt;
  /** Multi-shot: "first"/"last" means the first/last `positionFraction` of the shot. */
  positionFraction: number;
  /** Persistence saturates at this many seconds. */
  persistence_s: number;
  /** Matched runs closer than this are one run for uniqueness. */
  uniqueGap_s: number;
}

export const DEFAULT_RESPONSE_OPTIONS: ResponseOptions = {
  gamma: undefined,
  holdEps: DEFAULT_HOLD_EPS,
  psnrLow: 12,
  psnrHigh: 50,
  ssimLow: 0.65,
  ssimHigh: 1,
  fusion: 0.5,
  kfsFrame: 'tie',
  kfsTie: 0.001,
  placeAt: 'hold',
  positionFraction: 0.25,
  persistence_s: 0.5,
  uniqueGap_s: 0.5,
};

export const PLACE_ATS = ['hold', 'peak'] as const;
export type PlaceAt = (typeof PLACE_ATS)[number];

export const KFS_FRAMES = ['tie', 'peak'] as const;
type KfsFrame = (typeof KFS_FRAMES)[number];
