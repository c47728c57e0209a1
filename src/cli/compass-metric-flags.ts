/** The Compass metric flags (response scores, the scan's stage 2, the video-length bound) and their parsing. */
import type { Command } from 'commander';
import {
  DEFAULT_RESPONSE_OPTIONS,
  DEFAULT_SCAN_OPTIONS,
  KEYFRAME_FITS,
  KFS_FRAMES,
  type ResponseOptions,
} from '../compass/response/options.js';
import { EMBEDDER_FORMS } from '../embed/registry.js';
import { UsageError } from '../errors.js';
import { DEFAULT_MAX_DURATION_S } from '../media/duration.js';
import { onnxOptions } from './embed.js';
import { oneOf, parseNumberFlag } from './output.js';

export interface MetricFlags {
  embedder: string;
  threads?: string;
  device?: string;
  gamma?: string;
  holdEps: string;
  psnrLow: string;
  psnrHigh: string;
  ssimLow: string;
  ssimHigh: string;
  fusion: string;
  kfsFrame: string;
  kfsTie: string;
  positionFraction: string;
  persistenceS: string;
  uniqueGapS: string;
  fpsCap: string;
  pixelSize: string;
  decodeThreads: string;
  keyframeFit: string;
  matchSize: string;
  holdToleranceDb: string;
  holdMatchDb: string;
  maxDuration: string;
}

export function metricFlags(cmd: Command): Command {
  const d = DEFAULT_RESPONSE_OPTIONS;
  return onnxOptions(cmd)
    .option('--embedder <spec>', EMBEDDER_FORMS, 'builtin')
    .option('--gamma <g>', "match threshold (default: the embedder's own; builtin 0.76, DINOv3 0.80)")
    .option('--hold-eps <x>', 'a hold = frames within this of the best similarity', String(d.holdEps))
    .option('--psnr-low <db>', 'pixel score: PSNR lower anchor', String(d.psnrLow))
    .option('--psnr-high <db>', 'pixel score: PSNR saturation', String(d.psnrHigh))
    .option('--ssim-low <x>', 'pixel score: SSIM lower anchor', String(d.ssimLow))
    .option('--ssim-high <x>', 'pixel score: SSIM saturation', String(d.ssimHigh))
    .option('--fusion <w>', 'KFS = w·pixel + (1 − w)·cos', String(d.fusion))
    .option(
      '--kfs-frame <f>',
      `KFS's one frame for cos and pixels: ${KFS_FRAMES.join(' | ')} (stage 2's frame when its cosine ties the best within --kfs-tie; the highest-cosine frame)`,
      d.kfsFrame,
    )
    .option(
      '--kfs-tie <x>',
      "--kfs-frame tie: stage 2's frame may lie this far below the best cosine",
      String(d.kfsTie),
    )
    .option(
      '--position-fraction <f>',
      'multi-shot: first/last = this fraction of the shot',
      String(d.positionFraction),
    )
    .option('--persistence-s <s>', 'persistence saturates at this many seconds', String(d.persistence_s))
    .option('--unique-gap-s <s>', 'matched runs closer than this count as one', String(d.uniqueGap_s))
    .option(
      '--fps-cap <r>',
      'sample every frame, at most this many per second',
      String(DEFAULT_SCAN_OPTIONS.fpsCap),
    )
    .option(
      '--pixel-size <px>',
      "PSNR/SSIM on frames scaled to this long side (0 = the video's own)",
      String(DEFAULT_SCAN_OPTIONS.pixelSize),
    )
    .option(
      '--max-duration <s>',
      'a video longer than this (seconds, from its header; for a scan in the scan cache, its recorded duration) is a failed video, never decoded',
      String(DEFAULT_MAX_DURATION_S),
    )
    .option(
      '--decode-threads <n>',
      "threads of the scan's video decoder (0 = ffmpeg's own, about one per core; fewer leave cores to --jobs)",
      String(DEFAULT_SCAN_OPTIONS.decodeThreads),
    )
    .option(
      '--keyframe-fit <fit>',
      `a keyframe of another aspect ratio than the video's: ${KEYFRAME_FITS.join(' | ')} (centre crop, black bars, distort)`,
      DEFAULT_SCAN_OPTIONS.keyframeFit,
    )
    .option(
      '--match-size <px>',
      "stage 2 finds each keyframe's frame on luma scaled to this long side (0 = the video's own)",
      String(DEFAULT_SCAN_OPTIONS.matchSize),
    )
    .option(
      '--hold-match-db <db>',
      "stage 2's hold: the frames matching the keyframe as well as its frame does, within this many dB of PSNR",
      String(DEFAULT_SCAN_OPTIONS.holdMatch_db),
    )
    .option(
      '--hold-tolerance-db <db|off>',
      "stage 2's hold, the other reading: frames within this luma PSNR of the keyframe's frame join it too (off: not)",
      'off',
    );
}

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
