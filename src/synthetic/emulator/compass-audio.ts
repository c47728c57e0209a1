/**
 * The emulator's fixed rule for the Compass audio metrics, on the loudness of the attached track
 * (it hears no more than that; see `audio.ts`):
 *  - AMA (audio modality adherence; asked only where the case requests audio, §E.3): the share of
 *    the sampled times at which something sounds — 1 once a tenth of them do, 0 for silence;
 *  - AVC (audio–visual coordination; asked of every video with a track, App. D: "intrinsic
 *    audio–video semantic and temporal agreement independently of the prompt"): sound and picture
 *    agree at a sampled frame when it sounds while the picture holds still (the frame's dHash is
 *    within 6 bits of a neighbouring frame's) or is silent while the picture moves; the score is
 *    1 − 2 × the share of frames where they disagree (at least 0); a track silent throughout has
 *    nothing to coordinate (0). What a frame "sounds" is the track's level over the frame's first
 *    35 ms (from 5 ms after its time, past the 5 ms fade-in of the mini set's tone).
 * Written for the mini set's tracks (a tone while a keyframe is held); it says nothing about a real
 * judge.
 */
import { hamming } from '../../media/hash.js';
import { type AudioFeatures, SOUND_LEVEL } from './audio.js';
import type { ImageFeatures } from './features.js';

interface Frame {
  t: number;
  f: ImageFeatures;
}

export interface AudioJudgement {
  score: number;
  from: number;
  to: number;
  why: string;
}

/** The stretch of sound heard for a frame at t: [t + EAR_FROM_S, t + EAR_TO_S) (a frame at 24 fps lasts 42 ms). */
const EAR_FROM_S = 0.005;
const EAR_TO_S = 0.035;
/** Two sampled frames at most this many dHash bits apart show a picture holding still. */
const STILL_BITS = 6;

export function judgeAudio(
  metric: 'AMA' | 'AVC',
  frames: readonly Frame[],
  audio: AudioFeatures,
): AudioJudgement {
  const first = frames[0]?.t ?? 0;
  const last = frames[frames.length - 1]?.t ?? 0;
  const sounding = frames.map((x) => audio.level(x.t + EAR_FROM_S, x.t + EAR_TO_S) >= SOUND_LEVEL);
  const heard = sounding.filter(Boolean).length / Math.max(1, frames.length);
  if (metric === 'AMA')
    return {
      score: Math.min(1, heard / 0.1),
      from: first,
      to: last,
      why: `sound at ${(100 * heard).toFixed(0)} % of the sampled times`,
    };
  if (heard === 0) return { score: 0, from: first, to: last, why: 'the track is silent throughout' };
  const near = (a: ImageFeatures, b: Frame | undefined) =>
    b !== undefined && hamming(a.fingerprint, b.f.fingerprint) <= STILL_BITS;
  const still = frames.map((x, i) => near(x.f, frames[i - 1]) || near(x.f, frames[i + 1]));
  const off = frames.flatMap((x, i) => (still[i] === sounding[i] ? [] : [x.t]));
  const agree = 1 - off.length / Math.max(1, frames.length);
  return {
    score: Math.max(0, 1 - 2 * (1 - agree)),
    from: off[0] ?? first,
    to: off[0] ?? last,
    why: `sound and picture agree at ${(100 * agree).toFixed(0)} % of the sampled frames (sound while the picture holds still)${off.length ? `; first disagreement at ${off[0]!.toFixed(2)} s` : ''}`,
  };
}
