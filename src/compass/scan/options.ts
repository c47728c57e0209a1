/** How a video is read for matching (SPEC §3.2), each a CLI flag with this default. */

/**
 * The hold ε of the match decision whose placing runs stage 2 refines (`ScanOptions.holdEps`), and
 * the response options' default for it (`ResponseOptions.holdEps`): one decision, one default.
 */
export const DEFAULT_HOLD_EPS = 0.02;

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
  holdEps: DEFAULT_HOLD_EPS,
};
