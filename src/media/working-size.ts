/**
 * The working size of luma matching (stage 2 of keyframe matching): the long side scaled to `size`,
 * each side rounded and then made even (at least 2); never up — the video's own size, made even,
 * when `size` is 0 or not smaller than its long side. `workingSizeExpr` is the same rule as ffmpeg
 * `scale` expressions, for a decoder started before the video's size is known.
 */
export function workingSize(width: number, height: number, size: number): { width: number; height: number } {
  const long = Math.max(width, height);
  const scaled = (x: number) => (size > 0 && size < long ? Math.round((x * size) / long) : x);
  const even = (x: number) => Math.max(2, x - (x % 2));
  return { width: even(scaled(width)), height: even(scaled(height)) };
}

export function workingSizeExpr(size: number): { w: string; h: string } {
  const side = (d: 'iw' | 'ih') => {
    const own = `max(2,${d}-mod(${d},2))`;
    if (!(size > 0)) return `'${own}'`;
    const r = `round(${d}*${size}/max(iw,ih))`;
    // quoted: the filtergraph parser keeps the commas inside
    return `'if(gte(${size},max(iw,ih)),${own},max(2,${r}-mod(${r},2)))'`;
  };
  return { w: side('iw'), h: side('ih') };
}
