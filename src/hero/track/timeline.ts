/**
 * The frame track's one mapping (SPEC §2.2): a film's timeline is its clips concatenated in
 * clips.jsonl order, each lasting end − start. Bucket k covers [k, k+1) s of the timeline; its
 * frame is the one shown at the midpoint k + 0.5 s, in the clip containing it, at
 * t_in_clip = k + 0.5 − the clip's start on the timeline; frame_idx = k for every k with
 * k + 0.5 < the timeline's length. Times are kept in integer microseconds so that long films do
 * not accumulate rounding. Adapting to the published PROTOCOL.md is a change to this file alone.
 */
import { BadInputError, InternalError } from '../../errors.js';
import type { Clip } from '../dataset/schemas.js';

const US = 1_000_000;

export function parseTimecode(t: number | string): number {
  if (typeof t === 'number') return t;
  const parts = t.split(':').map(Number);
  return parts.reduce((acc, p) => acc * 60 + p, 0);
}

export interface TimelineClip {
  clip_id: string;
  /** Position in clips.jsonl order. */
  index: number;
  start_us: number;
  end_us: number;
}

export interface TrackFrame {
  frame_idx: number;
  clip_id: string;
  /** Seconds from the clip's own start. */
  t_in_clip: number;
}

export class Timeline {
  readonly clips: TimelineClip[];
  readonly length_us: number;

  constructor(
    readonly movieId: string,
    clips: readonly Pick<Clip, 'clip_id' | 'start' | 'end'>[],
  ) {
    let at = 0;
    this.clips = clips.map((c, index) => {
      const d = Math.round((parseTimecode(c.end) - parseTimecode(c.start)) * US);
      if (!(d > 0)) throw new BadInputError(`clip ${c.clip_id} of ${movieId} has end ≤ start`);
      const tc = { clip_id: c.clip_id, index, start_us: at, end_us: at + d };
      at += d;
      return tc;
    });
    this.length_us = at;
  }

  /** Number of track frames: every k with k + 0.5 s < the timeline's length. */
  get frameCount(): number {
    return Math.max(0, Math.ceil((this.length_us - US / 2) / US));
  }

  /** A time on the timeline (µs) → the clip containing it and the time within that clip (s). */
  locate(t_us: number): { clip_id: string; t_in_clip: number } {
    if (!(t_us >= 0 && t_us < this.length_us))
      throw new InternalError(`time ${t_us / US} s is outside the timeline`);
    let lo = 0;
    let hi = this.clips.length - 1;
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if (this.clips[m]!.start_us <= t_us) lo = m;
      else hi = m - 1;
    }
    const c = this.clips[lo]!;
    return { clip_id: c.clip_id, t_in_clip: (t_us - c.start_us) / US };
  }

  /** frame_idx → (clip_id, t_in_clip). */
  frame(k: number): TrackFrame {
    if (!Number.isInteger(k) || k < 0 || k >= this.frameCount)
      throw new InternalError(`frame ${k} is outside 0..${this.frameCount - 1}`);
    const mid = k * US + US / 2;
    let lo = 0;
    let hi = this.clips.length - 1;
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if (this.clips[m]!.start_us <= mid) lo = m;
      else hi = m - 1;
    }
    const c = this.clips[lo]!;
    return { frame_idx: k, clip_id: c.clip_id, t_in_clip: (mid - c.start_us) / US };
  }

  /** (clip_id, t_in_clip) → frame_idx, or undefined when that is not a bucket midpoint. */
  frameOf(clipId: string, tInClip: number): number | undefined {
    const c = this.clips.find((x) => x.clip_id === clipId);
    if (!c) return undefined;
    const mid = c.start_us + Math.round(tInClip * US);
    const k = (mid - US / 2) / US;
    return Number.isInteger(k) && k >= 0 && k < this.frameCount ? k : undefined;
  }

  /** (clip_id, t_in_clip) → seconds on the film's timeline, or undefined for an unknown clip. */
  timeOf(clipId: string, tInClip: number): number | undefined {
    const c = this.clips.find((x) => x.clip_id === clipId);
    return c ? (c.start_us + Math.round(tInClip * US)) / US : undefined;
  }

  /** Every track frame, in order. */
  *frames(): Generator<TrackFrame> {
    for (let k = 0; k < this.frameCount; k++) yield this.frame(k);
  }

  /** Frames grouped by clip, in clip order: what a rebuild decodes from each clip file. */
  byClip(): { clip: TimelineClip; frames: TrackFrame[] }[] {
    const out: { clip: TimelineClip; frames: TrackFrame[] }[] = this.clips.map((clip) => ({
      clip,
      frames: [],
    }));
    const at = new Map(out.map((o) => [o.clip.clip_id, o.frames]));
    for (const f of this.frames()) at.get(f.clip_id)!.push(f);
    return out;
  }
}
