/** The selection methods by name. */
import { UsageError } from '../../errors.js';
import { didYouMean } from '../../nearest.js';
import { cluster } from './cluster.js';
import { hecateLike } from './hecate.js';
import type { SelectionMethod } from './method.js';
import { colourful, exposure, sharpest } from './proxies.js';
import { shotCentre } from './shots.js';
import { middle, random, uniform } from './simple.js';
import { ffmpegThumbnail } from './thumbnail.js';
import { vlmPick } from './vlm-pick.js';

export const METHODS: SelectionMethod[] = [
  random,
  uniform,
  middle,
  sharpest,
  exposure,
  colourful,
  ffmpegThumbnail,
  hecateLike,
  shotCentre,
  cluster,
  vlmPick,
];

export function methodByName(name: string): SelectionMethod {
  const m = METHODS.find((x) => x.name === name);
  if (!m) {
    const names = METHODS.map((x) => x.name);
    throw new UsageError(
      `--method must be one of ${names.join(', ')}, got "${name}"${didYouMean(name, names)}`,
    );
  }
  return m;
}
