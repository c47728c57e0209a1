/**
 * Still images taken into a video's own frame pipeline: the Compass scan's one path from pixels to
 * the embedder and to the pixel measures. Each image (RGB, at the video's own size) takes exactly
 * the chains a decoded frame takes once ffmpeg has converted it to RGB (frame-chains.ts: the
 * pixel-size copy, the small copy scaled from it, the working copy), and is read as a frame pair is
 * (601 luma of the RGB copies). A keyframe cut from a video with ffmpeg (`-frames:v 1 kf.png`) is
 * the very RGB the scan reads of that frame, so the two come out identical: cosine 1, PSNR ∞.
 */
import { BackendError, InternalError } from '../errors.js';
import { ffmpegFilterRaw } from './ffmpeg.js';
import { chainSize, FRAME_PIX_FMT, scaledChain, smallChain } from './frame-chains.js';
import { luma601, type RawImage } from './raw.js';
import type { VideoInfo } from './video-info.js';

type Size = { width: number; height: number };

/** What a frame pair (`FramePair`) carries of a frame, made of a still image. */
export interface FrameLike {
  /** The embedder's copy, RGB (`FramePair.small`). */
  small: RawImage;
  /** 601 luma of the pixel-size copy (`FramePair.fullLuma`): what PSNR/SSIM measure. */
  pixels: RawImage;
  /** 601 luma at the working size (`FramePair.work`; stage 2), when asked for. */
  work: RawImage | undefined;
}

export interface FrameLikeSizes {
  /** The pixel size (`pixelFrameSize`). */
  full: Size;
  /** The embedder's input size. */
  small: Size;
  /** The working size of stage 2; 'full' when it is the pixel size; undefined: none. */
  work: Size | 'full' | undefined;
}

/** `images` (RGB, all at the video's own size) as the video's frames come out of the scan. */
export async function imagesAsFrames(
  images: readonly RawImage[],
  info: Pick<VideoInfo, 'width' | 'height'>,
  sizes: FrameLikeSizes,
): Promise<FrameLike[]> {
  if (images.length === 0) return [];
  for (const img of images)
    if (img.width !== info.width || img.height !== info.height || img.channels !== 3)
      // the caller fits every keyframe to the video first: a mismatch is kfbench's own fault
      throw new InternalError(
        `imagesAsFrames needs RGB images of the video's size ${info.width}×${info.height}`,
      );
  const { full, small, work } = sizes;
  const fullChain = scaledChain(chainSize(full));
  const run = (chain: string, size: Size) => throughChain(images, info, chain, size);
  const [fulls, smalls, works] = await Promise.all([
    run(fullChain, full),
    run(`${fullChain},${smallChain(small)}`, small),
    work && work !== 'full' ? run(scaledChain(chainSize(work)), work) : undefined,
  ]);
  return images.map((_, i) => {
    const pixels = luma601(fulls[i]!);
    return {
      small: smalls[i]!,
      pixels,
      work: work === 'full' ? pixels : works && luma601(works[i]!),
    };
  });
}

/** Every image through one chain, in one ffmpeg process; RGB images of `size` back. */
async function throughChain(
  images: readonly RawImage[],
  info: Pick<VideoInfo, 'width' | 'height'>,
  chain: string,
  size: Size,
): Promise<RawImage[]> {
  const frames = await ffmpegFilterRaw({
    args: [
      ...[
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${info.width}x${info.height}`,
        '-r',
        '1',
        '-i',
        'pipe:0',
      ],
      ...['-vf', chain, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', FRAME_PIX_FMT, 'pipe:1'],
    ],
    input: images.map((i) => i.data),
    frameBytes: 3 * size.width * size.height,
    file: 'keyframe images',
  });
  if (frames.length !== images.length)
    throw new BackendError(`ffmpeg returned ${frames.length} of ${images.length} keyframe images`);
  return frames.map((data) => ({ width: size.width, height: size.height, channels: 3, data }));
}
