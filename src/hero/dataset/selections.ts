/**
 * A method's selections: one line per film, {"movie_id", "frames": [{"rank", "frame_idx"}]}, at
 * most 5 frames, ranks 1..n unique, every frame inside that film's track, known movie ids.
 * Every problem is reported as `file:line: …` before any judge call is made.
 */
import { readJsonlLenient } from '../../store/jsonl.js';
import type { Timeline } from '../track/timeline.js';
import { Selection } from './schemas.js';

const MAX_FRAMES = 5;

export interface SelectionCheck {
  selections: Map<string, { frame_idx: number; rank: number }[]>;
  problems: string[];
}

export async function checkSelections(
  file: string,
  timelines: Map<string, Timeline>,
): Promise<SelectionCheck> {
  const problems: string[] = [];
  const selections = new Map<string, { frame_idx: number; rank: number }[]>();
  for await (const l of readJsonlLenient(file, Selection)) {
    const at = `${file}:${l.line}`;
    if (!l.ok) {
      problems.push(`${at}: ${l.error}`);
      continue;
    }
    const s = l.value;
    const tl = timelines.get(s.movie_id);
    if (!tl) {
      problems.push(`${at}: unknown movie_id ${s.movie_id}`);
      continue;
    }
    if (selections.has(s.movie_id))
      problems.push(`${at}: a second line for ${s.movie_id} (one line per film)`);
    if (s.frames.length === 0) problems.push(`${at}: no frames for ${s.movie_id}`);
    if (s.frames.length > MAX_FRAMES)
      problems.push(`${at}: ${s.frames.length} frames for ${s.movie_id}, at most ${MAX_FRAMES}`);
    const ranks = s.frames.map((f) => f.rank).sort((a, b) => a - b);
    if (!ranks.every((r, i) => r === i + 1))
      problems.push(`${at}: ranks must be 1..${s.frames.length}, each once (got ${ranks.join(', ')})`);
    for (const f of s.frames) {
      if (f.frame_idx >= tl.frameCount)
        problems.push(
          `${at}: frame_idx ${f.frame_idx} is outside ${s.movie_id}'s track (0..${tl.frameCount - 1})`,
        );
    }
    selections.set(
      s.movie_id,
      [...s.frames].sort((a, b) => a.rank - b.rank).map((f) => ({ frame_idx: f.frame_idx, rank: f.rank })),
    );
  }
  if (selections.size === 0 && problems.length === 0)
    problems.push(`${file}: no rows (a selections file must list at least one film)`);
  return { selections, problems };
}
