/**
 * `hero track make-index`: write frame_track/track_index.jsonl.zst (every track frame's clip
 * coordinate) and frame_track/verify_dhash.jsonl.zst (24 evenly spaced frames per film with their
 * dHash) for a rebuilt track, so users can publish their own.
 */

import { BadInputError } from '../../errors.js';
import { dhashFile } from '../../media/hash.js';
import { writeJsonl } from '../../store/jsonl.js';
import { datasetPaths, trackFramePath } from '../dataset/layout.js';
import type { Layout } from '../dataset/layout-map.js';
import { loadCore } from '../dataset/load.js';
import { TrackRow, VerifyRow } from '../dataset/schemas.js';
import { isFilmDone } from './rebuild.js';

export const VERIFY_PER_FILM = 24;

/** The frames verify checks: floor((i + 0.5)·N/count) for i < count. */
export function verifyFrames(n: number, count = VERIFY_PER_FILM): number[] {
  const m = Math.min(count, n);
  return Array.from({ length: m }, (_, i) => Math.floor(((i + 0.5) * n) / m));
}

export async function makeIndex(o: {
  track: string;
  data: string;
  layout?: Layout | undefined;
  perFilm?: number;
}): Promise<{ films: number; frames: number; verify: number }> {
  const ds = await loadCore(o.data, o.layout);
  const films = [...ds.timelines.keys()].sort();
  for (const m of films) {
    if (!(await isFilmDone(o.track, m, ds.timelines.get(m)!.frameCount)))
      throw new BadInputError(
        `film ${m} is not completely rebuilt: run npx kfbench hero track rebuild first`,
        {
          file: o.track,
        },
      );
  }
  const p = datasetPaths(o.data);
  let frames = 0;
  await writeJsonl(
    p.trackIndex,
    TrackRow,
    (function* (): Generator<TrackRow> {
      for (const m of films)
        for (const f of ds.timelines.get(m)!.frames()) {
          frames++;
          yield { movie_id: m, frame_idx: f.frame_idx, clip_id: f.clip_id, t_in_clip: f.t_in_clip };
        }
    })(),
  );
  const rows: VerifyRow[] = [];
  for (const m of films)
    for (const k of verifyFrames(ds.timelines.get(m)!.frameCount, o.perFilm))
      rows.push({ movie_id: m, frame_idx: k, dhash: await dhashFile(trackFramePath(o.track, m, k)) });
  await writeJsonl(p.verifyDhash, VerifyRow, rows);
  return { films: films.length, frames, verify: rows.length };
}
