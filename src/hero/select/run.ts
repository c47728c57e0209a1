/**
 * `hero select`: run a method on every film of the track and write its selections
 * ({"movie_id", "frames": [{"rank", "frame_idx"}]} per line, films in id order) atomically.
 */
import { existsSync } from 'node:fs';
import { createBuiltinEmbedder } from '../../embed/builtin.js';
import type { Embedder } from '../../embed/embedder.js';
import { BadInputError, InternalError, UsageError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { loadImage, resizeImage } from '../../media/image.js';
import { type ImageStats, imageStats } from '../../media/image-stats.js';
import type { RawImage } from '../../media/raw.js';
import { type OnProgress, phaseReporter } from '../../progress.js';
import { createRng } from '../../stats/rng.js';
import { writeJsonl } from '../../store/jsonl.js';
import { trackFramePath } from '../dataset/layout.js';
import type { Layout } from '../dataset/layout-map.js';
import { loadCore, readQuery } from '../dataset/load.js';
import { Selection } from '../dataset/schemas.js';
import { selectFilms } from '../track/shard.js';
import type { SelectContext, SelectionMethod } from './method.js';

export interface SelectOptions {
  method: SelectionMethod;
  data: string;
  /** The layout map the dataset's files are read through (default: the built-in one). */
  layout?: Layout | undefined;
  track: string;
  out: string;
  /** Full-rate clips, for methods that need them (shot-centre). */
  lsmdc?: string | undefined;
  /** A judge, for methods that need one (vlm-pick). */
  judge?: { judge: Judge; encoder: ImageEncoder } | undefined;
  /** An embedder, for methods that need one (cluster); builtin by default. */
  embedder?: Embedder | undefined;
  k?: number;
  seed?: number | string;
  movies?: string[] | undefined;
  /** Phase `select`: one item per film. */
  onProgress?: OnProgress;
}

export async function runSelection(o: SelectOptions): Promise<{ films: number; frames: number }> {
  const ds = await loadCore(o.data, o.layout);
  const films = selectFilms(ds.timelines.keys(), { movies: o.movies });
  const needs = o.method.needs ?? {};
  if (needs.clips && !o.lsmdc)
    throw new UsageError(`method ${o.method.name} reads the full-rate clips: pass --lsmdc DIR`);
  if (needs.judge && !o.judge)
    throw new UsageError(`method ${o.method.name} asks a judge: pass --judge SPEC`);
  const query = needs.judge ? readQuery(o.data) : '';
  const embedder = needs.embedder ? (o.embedder ?? createBuiltinEmbedder()) : undefined;
  const k = o.k ?? 5;
  if (!(k >= 1 && k <= 5)) throw new BadInputError(`k must be 1–5, got ${k}`);
  const rows: Selection[] = [];
  let frames = 0;
  const progress = phaseReporter(o.onProgress, 'select', 'films');
  progress.start(films.length, o.method.name);
  for (const m of films) {
    const n = ds.timelines.get(m)!.frameCount;
    const cache = new Map<number, Promise<RawImage>>();
    const statsCache = new Map<number, Promise<ImageStats>>();
    const frame = (i: number) => {
      let p = cache.get(i);
      if (!p) {
        const file = trackFramePath(o.track, m, i);
        if (!existsSync(file))
          throw new BadInputError(`track frame ${i} of ${m} is missing: rebuild the track`, { file });
        p = loadImage(file).then((img) =>
          resizeImage(img, 160, Math.max(8, Math.round((img.height * 160) / img.width))),
        );
        cache.set(i, p);
      }
      return p;
    };
    const ctx: SelectContext = {
      movieId: m,
      frameCount: n,
      k,
      rng: createRng(`${o.seed ?? 0}/${o.method.name}/${m}`),
      frame,
      ...(needs.clips ? { clips: { lsmdc: o.lsmdc!, timeline: ds.timelines.get(m)! } } : {}),
      ...(needs.judge
        ? { judge: { ...o.judge!, query, trackFrame: (i: number) => trackFramePath(o.track, m, i) } }
        : {}),
      ...(embedder ? { embedder } : {}),
      stats: (i) => {
        let p = statsCache.get(i);
        if (!p) {
          p = frame(i).then(imageStats);
          statsCache.set(i, p);
        }
        return p;
      },
    };
    const picked = (await o.method.select(ctx)).slice(0, k);
    if (
      new Set(picked).size !== picked.length ||
      picked.some((i) => !Number.isInteger(i) || i < 0 || i >= n)
    ) {
      // a selection method's own fault, not the user's: a typed internal error (exit 1)
      throw new InternalError(
        `method ${o.method.name} returned invalid frames for ${m} (${picked.join(', ')}): each must be a distinct whole number in 0–${n - 1}`,
      );
    }
    rows.push({ movie_id: m, frames: picked.map((frame_idx, r) => ({ rank: r + 1, frame_idx })) });
    frames += picked.length;
    progress.done(m);
  }
  progress.finish();
  await writeJsonl(o.out, Selection, rows);
  return { films: rows.length, frames };
}
