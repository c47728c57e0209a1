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
  holdEps: 0.02,
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

/** How a video is read for matching (these change the scan, so they enter its cache key). */
export interface ScanOptions {
  /** Frames sampled: every frame, capped at this rate. */
  fpsCap: number;
  /** PSNR/SSIM are computed with frames scaled to this long side (0 = the video's own size). */
  pixelSize: number;
  /** Frames embedded per batch. */
  batch: number;
  /**
   * Start decoding beside the probe (media/pairs.ts `startFramePairs`); the frames are the same
   * either way, so this does not enter the scan's cache key.
   */
  earlyStart: boolean;
  /**
   * The decoder's threads (ffmpeg `-threads`; 0 = ffmpeg's own choice, about one per core). Fewer
   * leave cores to kfbench's own work or to other `--jobs`; the frames are the same, so this does
   * not enter the scan's cache key.
   */
  decodeThreads: number;
  /**
   * How a keyframe meets a video of another aspect ratio, before PSNR/SSIM and embedding: `crop`
   * (centre crop to the video's aspect, as VBench-I2V crops its inputs), `pad` (black bars) or
   * `stretch` (kfbench before issue 28).
   */
  keyframeFit: KeyframeFit;
  /** Stage 2 (`stage2.ts`): refine each placing run to its frame; false = stage 1 alone. */
  refine: boolean;
  /**
   * Stage 2 compares luma at this long side (px; 0 = the video's own size). Equal to `pixelSize`
   * (the default), the frames' pixel-size copy serves both and nothing more is scaled.
   */
  matchSize: number;
  /**
   * Stage 2's hold: the frames around f*(k) that match the keyframe as well as f*(k) does, within
   * this many dB of its luma PSNR against the keyframe (a frozen or duplicated frame; a held still
   * under live grain or flicker). A neighbour that matches visibly worse is not held.
   */
  holdMatch_db: number;
  /**
   * The other reading of the hold (kfbench before issue 44): frames within this luma PSNR (dB) of
   * f*(k) itself join it too. null (the default): off — in calm footage that test holds most of
   * the shot.
   */
  holdTolerance_db: number | null;
  /**
   * The match decision whose placing runs stage 2 refines: the response options' γ (undefined =
   * the embedder's own) and hold ε. A report scored with others falls back to stage 1 for any
   * keyframe whose placing run differs.
   */
  gamma: number | undefined;
  holdEps: number;
}

export const PLACE_ATS = ['hold', 'peak'] as const;
export type PlaceAt = (typeof PLACE_ATS)[number];

export const KFS_FRAMES = ['tie', 'peak'] as const;
export type KfsFrame = (typeof KFS_FRAMES)[number];

export const KEYFRAME_FITS = ['crop', 'pad', 'stretch'] as const;
export type KeyframeFit = (typeof KEYFRAME_FITS)[number];

export const DEFAULT_SCAN_OPTIONS: ScanOptions = {
  fpsCap: 24,
  pixelSize: 512,
  batch: 32,
  earlyStart: true,
  decodeThreads: 0,
  keyframeFit: 'crop',
  refine: true,
  matchSize: 512,
  holdTolerance_db: null,
  holdMatch_db: 2,
  gamma: undefined,
  holdEps: DEFAULT_RESPONSE_OPTIONS.holdEps,
};
