import { describe, expect, it } from 'vitest';
import { gridShape, storyboardGrid } from '../../src/media/grid.js';
import type { RawImage } from '../../src/media/raw.js';

function flat(w: number, h: number, rgb: [number, number, number]): RawImage {
  const data = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) data.set(rgb, i * 3);
  return { width: w, height: h, channels: 3, data };
}

function px(img: RawImage, x: number, y: number): number[] {
  const i = (y * img.width + x) * 3;
  return Array.from(img.data.subarray(i, i + 3));
}

describe('storyboard grid', () => {
  it('cols = ceil(sqrt(N)), rows to fit', () => {
    expect(gridShape(1)).toEqual({ cols: 1, rows: 1 });
    expect(gridShape(3)).toEqual({ cols: 2, rows: 2 });
    expect(gridShape(5)).toEqual({ cols: 3, rows: 2 });
    expect(gridShape(9)).toEqual({ cols: 3, rows: 3 });
    expect(gridShape(12)).toEqual({ cols: 4, rows: 3 });
  });

  it('places images row-major in equal cells', async () => {
    const colours: [number, number, number][] = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 0],
      [0, 255, 255],
    ];
    const g = await storyboardGrid(
      colours.map((c) => flat(40, 30, c)),
      { gap: 2 },
    );
    expect(g).toMatchObject({ width: 3 * 40 + 2 * 2, height: 2 * 30 + 2 });
    colours.forEach((c, i) => {
      const cx = (i % 3) * 42 + 20;
      const cy = Math.floor(i / 3) * 32 + 15;
      for (const [k, v] of px(g, cx, cy).entries()) expect(Math.abs(v - c[k]!)).toBeLessThanOrEqual(2);
    });
    // the sixth cell is empty background
    expect(px(g, 2 * 42 + 20, 32 + 15)).toEqual([16, 16, 16]);
  });

  it('labels change the top-left corner of each cell only', async () => {
    const imgs = [flat(120, 90, [200, 200, 200]), flat(120, 90, [200, 200, 200])];
    const plain = await storyboardGrid(imgs);
    const labelled = await storyboardGrid(imgs, { labels: true });
    let changedCorner = 0;
    for (let y = 4; y < 20; y++)
      for (let x = 4; x < 20; x++) if (px(plain, x, y)[0] !== px(labelled, x, y)[0]) changedCorner++;
    expect(changedCorner).toBeGreaterThan(20);
    expect(px(labelled, 100, 80)).toEqual(px(plain, 100, 80));
  });
});
