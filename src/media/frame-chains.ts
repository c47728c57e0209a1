/**
 * The filter chains a decoded frame takes on its way to the Compass scan's readers, written once:
 * the conversion to RGB, the frame pair's pixel-size copy and its small copy (pairs.ts), the
 * working copy (pairs.ts, window.ts). A keyframe image enters the same chains after the conversion
 * (frame-like.ts), so a keyframe and a video frame meet the embedder and the pixel measures by one
 * path: the same RGB conversion, the same resize.
 */

/** A size as numbers, or as ffmpeg `scale` expressions (a decoder started before the probe). */
export interface ChainSize {
  w: string;
  h: string;
}

/** Every copy of a frame leaves ffmpeg as packed 8-bit RGB. */
export const FRAME_PIX_FMT = 'rgb24';

export function chainSize(s: { width: number; height: number }): ChainSize {
  return { w: String(s.width), h: String(s.height) };
}

/**
 * The frame as a player shows it: ffmpeg's own conversion to RGB at the frame's own size, in the
 * stream's colour matrix and range (BT.601, limited, when the file does not say) — the conversion
 * `ffmpeg -i video.mp4 -frames:v 1 frame.png` makes, so a keyframe cut that way is the very RGB
 * the scan reads.
 */
export function rgbChain(): string {
  return `format=${FRAME_PIX_FMT}`;
}

/**
 * The copy at the pixel size (and the working copy): area-scaled from the RGB frame, in RGB (the
 * format pinned after every scale, so that ffmpeg's format negotiation cannot scale one graph in
 * another format than the other).
 */
export function scaledChain(size: ChainSize): string {
  return `scale=w=${size.w}:h=${size.h}:flags=area,setsar=1,format=${FRAME_PIX_FMT}`;
}

/** The embedder's copy, area-scaled from the pixel-size copy (aspect not kept). */
export function smallChain(small: { width: number; height: number }): string {
  return `scale=${small.width}:${small.height}:flags=area,format=${FRAME_PIX_FMT}`;
}
