/**
 * The size a frame pair is read at: the pixel size frames are compared at (as numbers, and as
 * ffmpeg `scale` expressions for a decoder started before the probe).
 */

/**
 * The size a frame is compared at (PSNR/SSIM): the long side scaled to `pixelSize`, the width
 * rounded down to even (at least 2), the height in proportion; the video's own size when
 * `pixelSize` is 0 or not smaller than its long side (never up). `pixelFrameExpr` is the same rule
 * as ffmpeg `scale` expressions, so that a decoder can start before the video's size is known.
 */
export function pixelFrameSize(
  width: number,
  height: number,
  pixelSize: number,
): { width: number; height: number } {
  const long = Math.max(width, height);
  if (!pixelSize || pixelSize >= long) return { width, height };
  const w0 = Math.round((width * pixelSize) / long);
  const w = Math.max(2, w0 - (w0 % 2));
  return { width: w, height: Math.max(1, Math.round((w * height) / width)) };
}

export function pixelFrameExpr(pixelSize: number): { w: string; h: string } {
  if (!pixelSize) return { w: 'iw', h: 'ih' };
  const P = pixelSize;
  const w0 = `round(iw*${P}/max(iw,ih))`;
  return {
    // quoted: the filtergraph parser keeps the commas inside
    w: `'if(gte(${P},max(iw,ih)),iw,max(2,${w0}-mod(${w0},2)))'`,
    h: `'if(gte(${P},max(iw,ih)),ih,max(1,round(ow*ih/iw)))'`,
  };
}
