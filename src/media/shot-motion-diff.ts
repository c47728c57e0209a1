/**
 * A change of content, not of motion (issue 48 item 2): frame n against frame n − 1 moved by the
 * best global shift. Each frame becomes a 48×27 luma plane (area means, whatever the frame's
 * size); the change is the least mean absolute difference over the plane's centre (a 4-cell
 * margin) among shifts of up to ±4 cells (±1/12 of the width, ±4/27 of the height: a fast pan or a
 * camera bump). Within a shot — a pan, a tilt, a shake — a shift explains the new frame and the
 * change stays near the compression and sub-cell noise; across a cut between two shots of one
 * palette and one motion nothing does, so the change jumps while the colour histogram barely moves.
 */
import type { RawImage } from './raw.js';

const W = 48;
const H = 27;
const R = 4;

/**
 * A frame's 48×27 luma plane (0.299 R + 0.587 G + 0.114 B, area means) less its mean: a flicker
 * or an exposure step moves every cell alike and is not a change of content.
 */
export function motionPlane(img: RawImage): Float32Array {
  const { width, height, data, channels } = img;
  const { cols, rows, count } = gridOf(width, height);
  const acc = new Float64Array(W * H);
  let i = 0;
  for (let y = 0; y < height; y++) {
    const row = rows[y]!;
    if (channels >= 3)
      for (let x = 0; x < width; x++, i += channels)
        acc[row + cols[x]!]! += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    else for (let x = 0; x < width; x++, i += channels) acc[row + cols[x]!]! += data[i]!;
  }
  const p = new Float32Array(W * H);
  let sum = 0;
  for (let k = 0; k < p.length; k++) sum += p[k] = acc[k]! / count[k]!;
  const mean = sum / p.length;
  for (let k = 0; k < p.length; k++) p[k]! -= mean;
  return p;
}

/** A motion plane's mean absolute value: its contrast (the plane is centred on its mean), in levels. */
export function planeContrast(p: Float32Array): number {
  let s = 0;
  for (let k = 0; k < p.length; k++) s += Math.abs(p[k]!);
  return s / p.length;
}

/** Per frame size: each column's and row's plane cell, and each cell's pixel count (at least 1). */
const grids = new Map<string, { cols: Uint16Array; rows: Uint32Array; count: Float64Array }>();

function gridOf(width: number, height: number) {
  const key = `${width}x${height}`;
  let g = grids.get(key);
  if (!g) {
    const cols = new Uint16Array(width);
    for (let x = 0; x < width; x++) cols[x] = Math.min(W - 1, Math.floor((x * W) / width));
    const rows = new Uint32Array(height);
    for (let y = 0; y < height; y++) rows[y] = Math.min(H - 1, Math.floor((y * H) / height)) * W;
    const count = new Float64Array(W * H);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) count[rows[y]! + cols[x]!]! += 1;
    for (let k = 0; k < count.length; k++) count[k] = Math.max(1, count[k]!);
    g = { cols, rows, count };
    grids.set(key, g);
  }
  return g;
}

/**
 * The mean absolute luma difference (levels) between `cur` and `prev` shifted by the best (dx, dy)
 * within ±4 cells, over the centre cells — cur(x, y) against prev(x + dx, y + dy).
 */
export function motionDiff(prev: Float32Array, cur: Float32Array): number {
  const n = (W - 2 * R) * (H - 2 * R);
  let best = Number.POSITIVE_INFINITY;
  for (let dy = -R; dy <= R; dy++)
    for (let dx = -R; dx <= R; dx++) {
      let s = 0;
      for (let y = R; y < H - R && s < best; y++) {
        const c = y * W;
        const p = (y + dy) * W + dx;
        for (let x = R; x < W - R; x++) s += Math.abs(cur[c + x]! - prev[p + x]!);
      }
      if (s < best) best = s;
    }
  return best / n;
}
