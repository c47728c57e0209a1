/**
 * `kfbench demo` as one call: the media building blocks on a generated video, then (unless
 * `mediaOnly`) HeroFrame on the mini set, the Compass keyframe response on the mini set, and both
 * Compass axes (`compass evaluate`'s path) on it. Each part is handed to `onPart` as soon as it is
 * done, so a caller can show it while the next one runs; all of them are returned.
 */
import { resolve } from 'node:path';
import type { OnProgress } from '../progress.js';
import { type CompassQualityDemo, runCompassQualityDemo } from '../synthetic/demo-compass-quality.js';
import { type MediaDemoResult, runMediaDemo } from '../synthetic/demo-media.js';
import { type CompassDemo, runCompassDemo } from './demo-compass.js';
import { type HeroDemoResult, runHeroDemo } from './demo-hero.js';

export interface DemoOptions {
  /** Where the demo writes (made if absent; material already built there is reused). */
  out: string;
  /** Only the media building blocks (a few seconds). */
  mediaOnly?: boolean | undefined;
  /** A folder where the mini sets are built once and copied from (the CLI's `KFBENCH_MATERIAL_CACHE`). */
  materialCache?: string | undefined;
  onProgress?: OnProgress | undefined;
  /** Each part as soon as it is done, before the next one starts. */
  onPart?: ((p: DemoPart) => void) | undefined;
}

export type DemoPart =
  | { part: 'media'; media: MediaDemoResult }
  | { part: 'hero'; hero: HeroDemoResult }
  | { part: 'compass'; compass: CompassDemo }
  | { part: 'quality'; quality: CompassQualityDemo };

export interface DemoOutcome {
  out: string;
  media: MediaDemoResult;
  /** Absent with `mediaOnly`. */
  hero?: HeroDemoResult;
  compass?: CompassDemo;
  quality?: CompassQualityDemo;
  wall_s: number;
}

export async function runDemo(o: DemoOptions): Promise<DemoOutcome> {
  const out = resolve(o.out);
  const onProgress: OnProgress = o.onProgress ?? (() => undefined);
  const onPart = o.onPart ?? (() => undefined);
  const t0 = Date.now();
  const media = await runMediaDemo(out);
  onPart({ part: 'media', media });
  if (o.mediaOnly) return { out, media, wall_s: (Date.now() - t0) / 1000 };
  const hero = await runHeroDemo(out, onProgress, o.materialCache);
  onPart({ part: 'hero', hero });
  const compass = await runCompassDemo(out, onProgress, o.materialCache);
  onPart({ part: 'compass', compass });
  const quality = await runCompassQualityDemo(out, compass.mini, compass.scanCache, onProgress);
  onPart({ part: 'quality', quality });
  return { out, media, hero, compass, quality, wall_s: (Date.now() - t0) / 1000 };
}
