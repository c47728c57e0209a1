/** The only file that imports @napi-rs/canvas: renders small text badges (grid index labels). */
import { createRequire } from 'node:module';
import type * as Canvas from '@napi-rs/canvas';
import { loadNative } from '../native.js';

let canvasModule: typeof Canvas | undefined;

/** @napi-rs/canvas, loaded on first use: a missing or broken build is one backend error (exit 4). */
function createCanvas(width: number, height: number): Canvas.Canvas {
  canvasModule ??= loadNative(
    '@napi-rs/canvas',
    () => createRequire(import.meta.url)('@napi-rs/canvas') as typeof Canvas,
  );
  return canvasModule.createCanvas(width, height);
}

/** A PNG badge with `text` in white on a dark rounded box, sized for a cell of the given height. */
export function renderLabel(
  text: string,
  cellHeight: number,
): { png: Buffer; width: number; height: number } {
  const fontPx = Math.max(10, Math.round(cellHeight * 0.12));
  const pad = Math.round(fontPx * 0.35);
  const measure = createCanvas(8, 8).getContext('2d');
  measure.font = `bold ${fontPx}px sans-serif`;
  const textW = Math.ceil(measure.measureText(text).width);
  const width = textW + 2 * pad;
  const height = fontPx + 2 * pad;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'rgba(0,0,0,0.72)';
  ctx.beginPath();
  ctx.roundRect(0, 0, width, height, Math.round(pad * 0.8));
  ctx.fill();
  ctx.fillStyle = '#ffffff';
  ctx.font = `bold ${fontPx}px sans-serif`;
  ctx.textBaseline = 'middle';
  ctx.fillText(text, pad, height / 2 + 1);
  return { png: canvas.toBuffer('image/png'), width, height };
}
