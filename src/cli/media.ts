/** `kfbench media …`: the media building blocks by hand. */
import type { Command } from 'commander';
import { defined } from '../defined.js';
import { UsageError } from '../errors.js';
import { refuseOverlap } from '../store/path-overlap.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import { parseNumberFlag, printJson, printLines } from './output.js';

const PROBE_FLAG_SPECS = flagSpecs({
  ...JSON_FLAG_SPECS,
});

const DHASH_FLAG_SPECS = flagSpecs({
  ...JSON_FLAG_SPECS,
});

const COMPARE_FLAG_SPECS = flagSpecs({
  ...JSON_FLAG_SPECS,
});

const SHOTS_FLAG_SPECS = flagSpecs({
  ...JSON_FLAG_SPECS,
  cutThreshold: {
    flags: '--cut-threshold <x>',
    description: 'minimum histogram distance of a cut',
    default: '0.3',
  },
  minShot: { flags: '--min-shot <s>', description: 'shortest shot, seconds', default: '0.25' },
});

const SAMPLE_FLAG_SPECS = flagSpecs({
  fps: { flags: '--fps <rate>', description: 'samples per second, taken at t = (k + 0.5)/rate' },
  at: { flags: '--at <times>', description: 'comma-separated times in seconds' },
  out: { flags: '--out <dir>', description: 'output folder', required: true },
  width: { flags: '--width <px>', description: 'resize to this width (aspect kept)' },
  quality: { flags: '--quality <q>', description: 'JPEG quality', default: '92' },
  ...JSON_FLAG_SPECS,
});

const GRID_FLAG_SPECS = flagSpecs({
  out: { flags: '--out <file>', description: 'output image (.jpg or .png)', required: true },
  labels: { flags: '--labels', description: 'draw 1-based index labels' },
  cellWidth: { flags: '--cell-width <px>', description: 'cell width' },
  ...JSON_FLAG_SPECS,
});

/** `kfbench media probe`. */
function registerProbe(media: Command): void {
  const cmd = media
    .command('probe')
    .description(
      'duration, frame rate (variable or not, real mean rate), frame count, displayed size and audio of a video',
    )
    .argument('<video>');
  addFlags(cmd, PROBE_FLAG_SPECS).action(async (video: string, o: FlagValues<typeof PROBE_FLAG_SPECS>) => {
    const i = await (await import('../media/probe.js')).probeReport(video);
    const out = {
      duration_s: i.duration_s,
      fps: i.fps,
      // a truncated file: the frames that decode, and the container's count beside them
      frames: i.decodable_frames ?? i.frames,
      ...(i.truncated ? { truncated: true, container_frames: i.frames } : {}),
      width: i.width,
      height: i.height,
      has_audio: i.has_audio,
      vfr: i.vfr,
      mean_fps: i.mean_fps,
      rotation: i.rotation,
      // a stream begun mid-GOP: what its decoder dropped and concealed (the frames are those that decode)
      ...(i.decoding ? { dropped_frames: i.decoding.dropped, concealed_frames: i.decoding.concealed } : {}),
    };
    if (o.json) printJson(out);
    else
      printLines([
        `${video}: ${i.width}×${i.height}, ${i.decodable_frames === undefined ? `${i.frames} frames` : `${i.decodable_frames} frames that decode (the file is truncated: its container lists ${i.frames})`} at ${i.fpsRational.num}/${i.fpsRational.den} fps (${i.fps.toFixed(3)}), ${i.vfr ? `variable rate, mean ${i.mean_fps.toFixed(3)} fps, ` : ''}${i.duration_s.toFixed(3)} s, ${i.has_audio ? 'with' : 'no'} audio${i.rotation ? `, shown turned ${i.rotation}°` : ''}${i.decoding ? `; begins mid-stream: ${i.decoding.dropped} packets dropped and ${i.decoding.concealed} frames concealed by the decoder` : ''}`,
      ]);
  });
}

/** `kfbench media dhash`. */
function registerDhash(media: Command): void {
  const cmd = media
    .command('dhash')
    .description('64-bit difference hash (imagehash.dhash-compatible) of images')
    .argument('<images...>');
  addFlags(cmd, DHASH_FLAG_SPECS).action(async (images: string[], o: FlagValues<typeof DHASH_FLAG_SPECS>) => {
    const out = await (await import('../media/hash.js')).dhashFiles(images);
    if (o.json) printJson(out);
    else printLines(out.map((r) => `${r.dhash}  ${r.path}`));
  });
}

/** `kfbench media compare`. */
function registerCompare(media: Command): void {
  const cmd = media
    .command('compare')
    .description('PSNR and SSIM on ITU-R 601 luma (B resized to A when sizes differ)')
    .argument('<a>')
    .argument('<b>');
  addFlags(cmd, COMPARE_FLAG_SPECS).action(
    async (a: string, b: string, o: FlagValues<typeof COMPARE_FLAG_SPECS>) => {
      const r = await (await import('../media/quality.js')).compareImageFiles(a, b);
      if (o.json) printJson(r);
      else
        printLines([
          `PSNR ${r.identical ? '∞ (identical)' : `${r.psnr_db!.toFixed(3)} dB`}  SSIM ${r.ssim.toFixed(5)}`,
        ]);
    },
  );
}

/** `kfbench media shots`. */
function registerShots(media: Command): void {
  const cmd = media
    .command('shots')
    .description('shot segmentation: hard cuts and gradual transitions')
    .argument('<video>');
  addFlags(cmd, SHOTS_FLAG_SPECS).action(async (video: string, o: FlagValues<typeof SHOTS_FLAG_SPECS>) => {
    const r = await (await import('../media/shots.js')).detectShotsInFile(video, {
      cutThreshold: parseNumberFlag('--cut-threshold', o.cutThreshold, (n) => n > 0 && n <= 1),
      minShot_s: parseNumberFlag('--min-shot', o.minShot, (n) => n >= 0),
    });
    if (o.json) printJson({ shots: r.shots, transitions: r.transitions });
    else
      printLines([
        ...r.shots.map(
          (s, k) =>
            `shot ${k}: frames ${s.start_frame}–${s.end_frame - 1}  [${s.start_s.toFixed(3)} s, ${s.end_s.toFixed(3)} s)`,
        ),
        ...r.transitions.map((t) => `${t.kind} at frames ${t.start_frame}–${t.end_frame}`),
      ]);
  });
}

/** `kfbench media sample`. */
function registerSample(media: Command): void {
  const cmd = media
    .command('sample')
    .description('write frames as JPEG files named by frame index: at a rate (bucket midpoints) or at times')
    .argument('<video>');
  addFlags(cmd, SAMPLE_FLAG_SPECS).action(async (video: string, o: FlagValues<typeof SAMPLE_FLAG_SPECS>) => {
    if ((o.fps === undefined) === (o.at === undefined))
      throw new UsageError('give exactly one of --fps RATE or --at t1,t2,…');
    const req =
      o.fps !== undefined
        ? ({ kind: 'rate', rate: parseNumberFlag('--fps', o.fps, (n) => n > 0) } as const)
        : ({
            kind: 'times',
            times: o.at!.split(',').map((t) => parseNumberFlag('--at', t, (n) => n >= 0)),
          } as const);
    const width =
      o.width === undefined
        ? undefined
        : parseNumberFlag('--width', o.width, (n) => Number.isInteger(n) && n > 0);
    const files = await (await import('../media/sample.js')).sampleToDir(video, req, o.out, {
      quality: parseNumberFlag('--quality', o.quality, (n) => n >= 1 && n <= 100),
      format: { width },
    });
    if (o.json) printJson(files);
    else printLines(files.map((f) => `${f.path}  frame ${f.frame}  t=${f.time_s.toFixed(3)} s`));
  });
}

/** `kfbench media grid`. */
function registerGrid(media: Command): void {
  const cmd = media
    .command('grid')
    .description('storyboard grid: images row-major, cols = ceil(sqrt(N))')
    .argument('<images...>');
  addFlags(cmd, GRID_FLAG_SPECS).action(async (images: string[], o: FlagValues<typeof GRID_FLAG_SPECS>) => {
    const cellWidth =
      o.cellWidth === undefined
        ? undefined
        : parseNumberFlag('--cell-width', o.cellWidth, (n) => Number.isInteger(n) && n > 0);
    refuseOverlap({
      reads: images.map((path) => ({ flag: 'image', path })),
      writes: [{ flag: '--out', path: o.out }],
    });
    const r = await (await import('../media/grid.js')).gridFiles(
      images,
      o.out,
      defined({
        labels: !!o.labels,
        cellWidth,
      }),
    );
    if (o.json) printJson({ path: o.out, ...r });
    else printLines([`${o.out}  ${r.width}×${r.height}`]);
  });
}

export function registerMedia(media: Command): void {
  registerProbe(media);
  registerDhash(media);
  registerCompare(media);
  registerShots(media);
  registerSample(media);
  registerGrid(media);
}
