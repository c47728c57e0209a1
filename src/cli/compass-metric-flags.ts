/** The Compass metric flags (response scores, the scan's stage 2, the video-length bound) and their parsing. */

import {
  DEFAULT_RESPONSE_OPTIONS,
  KFS_FRAMES,
  PLACE_ATS,
  type ResponseOptions,
} from '../compass/response/options.js';
import { DEFAULT_SCAN_OPTIONS, KEYFRAME_FITS } from '../compass/scan/options.js';
import { EMBEDDER_FORMS } from '../embed/registry.js';
import { UsageError } from '../errors.js';
import { DEFAULT_MAX_DURATION_S } from '../media/duration.js';
import { SCORE_DECODE_THREADS } from '../runs/compass-score.js';
import { ONNX_FLAG_SPECS } from './embed.js';
import { type FlagValues, flagSpecs } from './flags.js';
import { oneOf, parseNumberFlag } from './output.js';

const d = DEFAULT_RESPONSE_OPTIONS;
const scan = DEFAULT_SCAN_OPTIONS;

/** The response scores' flags (`responseOptions`). */
const RESPONSE_FLAG_SPECS = flagSpecs({
  gamma: {
    flags: '--gamma <g>',
    description: "match threshold (default: the embedder's own; builtin 0.76, DINOv3 0.80)",
  },
  holdEps: {
    flags: '--hold-eps <x>',
    description: 'a hold = frames within this of the best similarity',
    default: String(d.holdEps),
  },
  psnrLow: {
    flags: '--psnr-low <db>',
    description: 'pixel score: PSNR lower anchor',
    default: String(d.psnrLow),
  },
  psnrHigh: {
    flags: '--psnr-high <db>',
    description: 'pixel score: PSNR saturation',
    default: String(d.psnrHigh),
  },
  ssimLow: {
    flags: '--ssim-low <x>',
    description: 'pixel score: SSIM lower anchor',
    default: String(d.ssimLow),
  },
  ssimHigh: {
    flags: '--ssim-high <x>',
    description: 'pixel score: SSIM saturation',
    default: String(d.ssimHigh),
  },
  fusion: { flags: '--fusion <w>', description: 'KFS = w·pixel + (1 − w)·cos', default: String(d.fusion) },
  kfsFrame: {
    flags: '--kfs-frame <f>',
    description: `KFS's one frame for cos and pixels: ${KFS_FRAMES.join(' | ')} (stage 2's frame when its cosine ties the best within --kfs-tie; the highest-cosine frame)`,
    default: d.kfsFrame,
  },
  kfsTie: {
    flags: '--kfs-tie <x>',
    description: "--kfs-frame tie: stage 2's frame may lie this far below the best cosine",
    default: String(d.kfsTie),
  },
  placeAt: {
    flags: '--place-at <p>',
    description: `t(k): ${PLACE_ATS.join(' | ')} (the hold's frame nearest the target — a keyframe held over its target was shown at its target; f*(k)'s own time, the argmax taken literally)`,
    default: d.placeAt,
  },
  positionFraction: {
    flags: '--position-fraction <f>',
    description: 'multi-shot: first/last = this fraction of the shot',
    default: String(d.positionFraction),
  },
  persistenceS: {
    flags: '--persistence-s <s>',
    description: 'persistence saturates at this many seconds',
    default: String(d.persistence_s),
  },
  uniqueGapS: {
    flags: '--unique-gap-s <s>',
    description: 'matched runs closer than this count as one',
    default: String(d.uniqueGap_s),
  },
});

/** The scan's flags: sampling, pixels, the video-length bound, stage 2 (`scanOptions`, `maxDuration`). */
const SCAN_FLAG_SPECS = flagSpecs({
  fpsCap: {
    flags: '--fps-cap <r>',
    description: 'sample every frame, at most this many per second',
    default: String(scan.fpsCap),
  },
  pixelSize: {
    flags: '--pixel-size <px>',
    description: "PSNR/SSIM on frames scaled to this long side (0 = the video's own)",
    default: String(scan.pixelSize),
  },
  maxDuration: {
    flags: '--max-duration <s>',
    description:
      'a video longer than this (seconds, from its header; for a scan in the scan cache, its recorded duration) is a failed video, never decoded',
    default: String(DEFAULT_MAX_DURATION_S),
  },
  decodeThreads: {
    flags: '--decode-threads <n>',
    description:
      "threads of the scan's video decoder (0 = ffmpeg's own, about one per core). One by default: the decoder is not the scan's bottleneck, and more threads mostly wait on each other and on --jobs",
    default: String(SCORE_DECODE_THREADS),
  },
  keyframeFit: {
    flags: '--keyframe-fit <fit>',
    description: `a keyframe of another aspect ratio than the video's: ${KEYFRAME_FITS.join(' | ')} (centre crop, black bars, distort)`,
    default: scan.keyframeFit,
  },
  matchSize: {
    flags: '--match-size <px>',
    description: "stage 2 finds each keyframe's frame on luma scaled to this long side (0 = the video's own)",
    default: String(scan.matchSize),
  },
  holdMatchDb: {
    flags: '--hold-match-db <db>',
    description:
      "stage 2's hold: the frames matching the keyframe as well as its frame does, within this many dB of PSNR",
    default: String(scan.holdMatch_db),
  },
  holdToleranceDb: {
    flags: '--hold-tolerance-db <db|off>',
    description:
      "stage 2's hold, the other reading: frames within this luma PSNR of the keyframe's frame join it too (off: not)",
    default: 'off',
  },
});

/** The Compass metric flags: the embedder (and its ONNX flags), the response scores, the scan's stage 2. */
export function metricFlagSpecs() {
  return flagSpecs({
    ...ONNX_FLAG_SPECS,
    embedder: { flags: '--embedder <spec>', description: EMBEDDER_FORMS, default: 'builtin' },
    ...RESPONSE_FLAG_SPECS,
    ...SCAN_FLAG_SPECS,
  });
}

/** The metric flags as commander gives them. */
export type MetricFlags = FlagValues<ReturnType<typeof metricFlagSpecs>>;

export function responseOptions(o: MetricFlags): ResponseOptions {
  const num = (name: string, v: string, ok: (n: number) => boolean = () => true) =>
    parseNumberFlag(name, v, ok);
  const unit = (n: number) => n >= 0 && n <= 1;
  const r: ResponseOptions = {
    gamma: o.gamma === undefined ? undefined : num('--gamma', o.gamma, (n) => n >= -1 && n <= 1),
    holdEps: num('--hold-eps', o.holdEps, (n) => n >= 0),
    psnrLow: num('--psnr-low', o.psnrLow),
    psnrHigh: num('--psnr-high', o.psnrHigh),
    ssimLow: num('--ssim-low', o.ssimLow),
    ssimHigh: num('--ssim-high', o.ssimHigh),
    fusion: num('--fusion', o.fusion, unit),
    kfsFrame: oneOf('--kfs-frame', o.kfsFrame ?? DEFAULT_RESPONSE_OPTIONS.kfsFrame, KFS_FRAMES),
    kfsTie: num('--kfs-tie', o.kfsTie ?? String(DEFAULT_RESPONSE_OPTIONS.kfsTie), (n) => n >= 0 && n <= 1),
    placeAt: oneOf('--place-at', o.placeAt ?? DEFAULT_RESPONSE_OPTIONS.placeAt, PLACE_ATS),
    positionFraction: num('--position-fraction', o.positionFraction, (n) => n > 0 && n <= 0.5),
    persistence_s: num('--persistence-s', o.persistenceS, (n) => n > 0),
    uniqueGap_s: num('--unique-gap-s', o.uniqueGapS, (n) => n >= 0),
  };
  if (r.psnrHigh <= r.psnrLow) throw new UsageError('--psnr-high must be above --psnr-low');
  if (r.ssimHigh <= r.ssimLow) throw new UsageError('--ssim-high must be above --ssim-low');
  return r;
}

/** `--max-duration <s>`: seconds, above 0. */
export function maxDuration(o: Pick<MetricFlags, 'maxDuration'>): number {
  return parseNumberFlag('--max-duration', o.maxDuration, (n) => n > 0);
}

/** The scan options of the flags; stage 2 refines the placing runs of the response options' γ and hold ε. */
export function scanOptions(o: MetricFlags) {
  const r = responseOptions(o);
  return {
    fpsCap: parseNumberFlag('--fps-cap', o.fpsCap, (n) => n > 0),
    pixelSize: parseNumberFlag('--pixel-size', o.pixelSize, (n) => Number.isInteger(n) && n >= 0),
    decodeThreads: parseNumberFlag('--decode-threads', o.decodeThreads, (n) => Number.isInteger(n) && n >= 0),
    keyframeFit: oneOf('--keyframe-fit', o.keyframeFit ?? DEFAULT_SCAN_OPTIONS.keyframeFit, KEYFRAME_FITS),
    matchSize: parseNumberFlag(
      '--match-size',
      o.matchSize ?? String(DEFAULT_SCAN_OPTIONS.matchSize),
      (n) => Number.isInteger(n) && n >= 0,
    ),
    holdTolerance_db:
      (o.holdToleranceDb ?? 'off') === 'off'
        ? null
        : parseNumberFlag('--hold-tolerance-db', o.holdToleranceDb!, (n) => n > 0),
    holdMatch_db: parseNumberFlag(
      '--hold-match-db',
      o.holdMatchDb ?? String(DEFAULT_SCAN_OPTIONS.holdMatch_db),
      (n) => n >= 0,
    ),
    gamma: r.gamma,
    holdEps: r.holdEps,
  };
}
