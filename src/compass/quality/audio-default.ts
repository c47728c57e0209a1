/**
 * Whether `compass evaluate` judges audio when neither `--judge-audio` nor `--no-judge-audio` is
 * given (issue 54 item 1): yes when the videos carry sound tracks. The paper's headline is "the
 * 115-sample joint audio-video leaderboard" (§4.2), which needs AMA and AVC judged; a set of silent
 * videos has no joint table to make, so audio is not asked of it. docs/compass.md, "Audio by default".
 */
import { existsSync } from 'node:fs';
import type { VideoInfo } from '../../media/video-info.js';
import { type PromptMode, videoPath } from '../cases/cases.js';

/** How audio came to be judged or not: a flag, or the default from the videos' tracks. */
export interface AudioDecision {
  judged: boolean;
  /** `flag`: --judge-audio / --no-judge-audio; `tracks`: the default, from the videos' sound tracks. */
  by: 'flag' | 'tracks';
}

/**
 * Some video of the evaluation carries a sound track (ffprobe; the first one found ends the
 * search). Videos absent from the folder are not looked at.
 */
export async function videosCarrySound(
  o: {
    videos: string;
    models: readonly string[];
    caseIds: readonly string[];
    modes: readonly PromptMode[];
  },
  probe: (file: string) => Promise<Pick<VideoInfo, 'has_audio'>>,
): Promise<boolean> {
  for (const model of o.models)
    for (const id of o.caseIds)
      for (const mode of o.modes) {
        const file = videoPath(o.videos, model, id, mode);
        if (existsSync(file) && (await probe(file)).has_audio) return true;
      }
  return false;
}

/** The line said on stderr about it. */
export function audioDecisionLine(d: AudioDecision): string {
  if (d.by === 'flag')
    return d.judged
      ? 'audio judged (--judge-audio)'
      : 'audio not judged (--no-judge-audio): no joint audio-video leaderboard';
  return d.judged
    ? "audio judged by default: the videos carry sound tracks, so AMA and AVC are asked and the joint audio-video leaderboard (the paper's headline) ranks; --no-judge-audio skips it (a judge that takes no audio input)"
    : 'audio not judged: no video carries a sound track, so there is no joint audio-video leaderboard';
}
