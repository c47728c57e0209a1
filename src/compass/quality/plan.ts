/**
 * What `compass evaluate --dry-run` prints before anything is spent: per grouped-judge call, the
 * frames and images sent and an estimate of the prompt tokens; checklist calls likewise.
 * Estimates: text ≈ characters / 4; an image ≈ one token per 28×28 pixels at the size sent (a
 * common vision-encoder patching); a checklist item ≈ 60 tokens (its JSON in the prompt).
 */
import { loadTemplate } from '../../judge/prompts.js';
import type { LoadedCase, PromptMode } from '../cases.js';
import { CHECKLIST_SIZES } from './checklist.js';
import { checklistMetrics } from './evaluate.js';
import { QUALITY_GROUPS, type QualityMetric } from './metrics.js';
import { type QualityOptions, qualityTimes } from './video.js';

export interface CallPlan {
  kind: 'checklist' | 'segment' | 'grouped';
  what: string;
  frames: number;
  images: number;
  tokens: number;
}

export const ITEM_TOKENS = 60;

/** Tokens of one image of this size after the long side is capped at `maxSide`. */
export function imageTokens(width: number, height: number, maxSide: number): number {
  const long = Math.max(width, height);
  const s = long > maxSide ? maxSide / long : 1;
  return Math.ceil((width * s) / 28) * Math.ceil((height * s) / 28);
}

const textTokens = (chars: number) => Math.ceil(chars / 4);

function caseText(c: LoadedCase, mode: PromptMode): number {
  return (
    (mode === 'minimal' ? c.prompts.minimal : c.prompts.segment_specific).length +
    c.story_summary.length +
    c.keyframes.length * 40
  );
}

/** Checklist calls of one case and mode: the keyframes as images (sized like the video's frames). */
export function checklistPlan(
  c: LoadedCase,
  mode: PromptMode,
  q: Pick<QualityOptions, 'audio'>,
  keyframeTokens: number,
): CallPlan[] {
  const t = loadTemplate('compass-checklist').text.length;
  return checklistMetrics(c, mode, q).map((m) => ({
    kind: 'checklist',
    what: `${c.case_id}__${mode} ${m}`,
    frames: 0,
    images: c.keyframes.length,
    tokens: textTokens(t + caseText(c, mode)) + c.keyframes.length * keyframeTokens,
  }));
}

/** Grouped-judge calls of one video: frames at the asked rate (or the budget), then the keyframes. */
export function videoPlan(
  c: LoadedCase,
  mode: PromptMode,
  video: { label: string; duration_s: number; width: number; height: number },
  q: QualityOptions,
  maxSide: number,
): CallPlan[] {
  const ask = new Set(checklistMetrics(c, mode, q));
  const { times } = qualityTimes(video.duration_s, q);
  const fw = Math.min(q.frameWidth, video.width);
  const fh = Math.round((video.height * fw) / video.width);
  const perFrame = imageTokens(fw, fh, maxSide);
  const perKeyframe = imageTokens(video.width, video.height, maxSide);
  const t = loadTemplate('compass-grouped').text.length;
  const out: CallPlan[] = [];
  for (const [name, group] of Object.entries(QUALITY_GROUPS) as [string, readonly QualityMetric[]][]) {
    const ms = group.filter((m) => ask.has(m));
    if (!ms.length) continue;
    const items = ms.reduce((s, m) => s + CHECKLIST_SIZES[m][1], 0);
    out.push({
      kind: 'grouped',
      what: `${video.label} ${name}`,
      frames: times.length,
      images: times.length + c.keyframes.length,
      tokens:
        textTokens(t + caseText(c, mode) + times.length * 12) +
        items * ITEM_TOKENS +
        times.length * perFrame +
        c.keyframes.length * perKeyframe,
    });
  }
  return out;
}

/** The judge segmenter's call for one video: 8 fps over the whole video, then the keyframes. */
export function segmentPlan(
  c: LoadedCase,
  video: { label: string; duration_s: number; width: number; height: number },
  frameWidth: number,
  maxSide: number,
): CallPlan {
  const { times } = qualityTimes(video.duration_s, { fps: 8, budget: undefined });
  const fw = Math.min(frameWidth, video.width);
  const fh = Math.round((video.height * fw) / video.width);
  const t = loadTemplate('compass-segment').text.length;
  return {
    kind: 'segment',
    what: `${video.label} segment`,
    frames: times.length,
    images: times.length + c.keyframes.length,
    tokens:
      textTokens(t + times.length * 12 + c.keyframes.length * 12) +
      times.length * imageTokens(fw, fh, maxSide) +
      c.keyframes.length * imageTokens(video.width, video.height, maxSide),
  };
}
