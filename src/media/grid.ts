/**
 * Storyboard grid: N images row-major into one image, cols = ceil(sqrt(N)), equal cells, each
 * image fitted inside its cell (aspect kept, letterboxed), optional 1-based index labels.
 * For generators that accept a single conditioning image.
 */

import { BadInputError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { compose, encodeImage, loadImage, resizeImage } from './image.js';
import { renderLabel } from './label.js';
import type { RawImage } from './raw.js';

export interface GridOptions {
  /** Cell size; default: the first image's size scaled so that the grid is at most `maxWidth` wide. */
  cellWidth?: number;
  cellHeight?: number;
  maxWidth?: number;
  labels?: boolean;
  /** Pixels between cells. */
  gap?: number;
}

export function gridShape(n: number): { cols: number; rows: number } {
  const cols = Math.ceil(Math.sqrt(n));
  return { cols, rows: Math.ceil(n / cols) };
}

export async function storyboardGrid(images: RawImage[], opts: GridOptions = {}): Promise<RawImage> {
  if (images.length === 0) throw new BadInputError('a grid needs at least one image');
  const { cols, rows } = gridShape(images.length);
  const gap = opts.gap ?? 4;
  const first = images[0]!;
  let cw = opts.cellWidth ?? first.width;
  let ch =
    opts.cellHeight ??
    (opts.cellWidth ? Math.round((opts.cellWidth * first.height) / first.width) : first.height);
  const maxWidth = opts.maxWidth ?? 1920;
  if (!opts.cellWidth && cols * cw + (cols - 1) * gap > maxWidth) {
    const s = (maxWidth - (cols - 1) * gap) / (cols * cw);
    cw = Math.max(1, Math.floor(cw * s));
    ch = Math.max(1, Math.floor(ch * s));
  }
  const W = cols * cw + (cols - 1) * gap;
  const H = rows * ch + (rows - 1) * gap;
  const layers: { img: RawImage | Buffer; left: number; top: number }[] = [];
  for (let i = 0; i < images.length; i++) {
    const img = images[i]!;
    const fitted = await resizeImage(img, cw, ch, 'contain');
    const left = (i % cols) * (cw + gap);
    const top = Math.floor(i / cols) * (ch + gap);
    layers.push({ img: fitted, left, top });
    if (opts.labels) {
      const label = renderLabel(String(i + 1), ch);
      if (label.width < cw && label.height < ch) {
        layers.push({ img: label.png, left: left + 4, top: top + 4 });
      }
    }
  }
  return compose(W, H, layers);
}

/** Make a storyboard grid from image files and write it (JPEG or PNG by extension) atomically. */
export async function gridFiles(
  files: string[],
  out: string,
  opts: GridOptions = {},
): Promise<{ width: number; height: number }> {
  const images = [];
  for (const f of files) images.push(await loadImage(f));
  const grid = await storyboardGrid(images, opts);
  const bytes = await encodeImage(
    grid,
    /\.png$/i.test(out) ? { format: 'png' } : { format: 'jpeg', quality: 92 },
  );
  await writeFileAtomic(out, bytes);
  return { width: grid.width, height: grid.height };
}
