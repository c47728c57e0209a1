/**
 * What `compass evaluate --dry-run` prints before anything is spent: per grouped-judge call, the
 * frames and images sent and an estimate of the prompt tokens; checklist calls likewise.
 * Estimates: text ≈ characters / 4; an image ≈ one token per 28×28 pixels at the size sent (a
 * common vision-encoder patching); a checklist item ≈ 60 tokens (its JSON in the prompt).
 */
import { existsSync } from 'node:fs';
import { loadTemplate } from '../../judge/prompts.js';
import { probe } from '../../media/probe.js';
import { type LoadedCase, type PromptMode, videoPath } from '../cases/cases.js';
import { CHECKLIST_SIZES, generatedChecklist } from './checklist.js';
import { checklistMetrics } from './evaluate-video.js';
import { qualityTimes } from './judge-frames.js';
import { groupMetrics, QUALITY_GROUP_NAMES } from './metrics.js';
import { CHECKLIST_TEMPLATE } from './prompts/checklist-generation.js';
import { GROUPED_TEMPLATE } from './prompts/grouped-judge.js';
import type { QualityOptions } from './video.js';

export interface CallPlan {
  kind: 'checklist' | 'segment' | 'grouped';
  what: string;
  frames: number;
  images: number;
  tokens: number;
}

const ITEM_TOKENS = 60;

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
  const t = CHECKLIST_TEMPLATE.length;
  return checklistMetrics(c, mode, q)
    .filter(generatedChecklist)
    .map((m) => ({
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
  const t = GROUPED_TEMPLATE.length;
  const out: CallPlan[] = [];
  for (const name of QUALITY_GROUP_NAMES) {
    const ms = groupMetrics(name).filter((m) => ask.has(m));
    if (!ms.length) continue;
    const items = ms.reduce((s, m) => s + CHECKLIST_SIZES[m][1], 0);
    // AV Coordination's question shows neither the request nor the keyframes (App. D)
    const kfs = name === 'av_coordination' ? 0 : c.keyframes.length;
    out.push({
      kind: 'grouped',
      what: `${video.label} ${name}`,
      frames: times.length,
      images: times.length + kfs,
      tokens:
        textTokens(t + (kfs ? caseText(c, mode) : 0) + times.length * 12) +
        items * ITEM_TOKENS +
        times.length * perFrame +
        kfs * perKeyframe,
    });
  }
  return out;
}

/**
 * The judge segmenter's call for one video: frames at the quality judge's rate and budget
 * (`--quality-fps`, `--frame-budget`, as `judgeSegmenter` is given them) over the whole video,
 * then the keyframes.
 */
function segmentPlan(
  c: LoadedCase,
  video: { label: string; duration_s: number; width: number; height: number },
  q: Pick<QualityOptions, 'fps' | 'budget' | 'frameWidth'>,
  maxSide: number,
): CallPlan {
  const { times } = qualityTimes(video.duration_s, q);
  const fw = Math.min(q.frameWidth, video.width);
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

/** What `compass evaluate --dry-run` reports: every call it would make, and the videos it cannot see. */
export interface EvaluationPlan {
  calls: CallPlan[];
  /** Videos absent from the folder (they make no calls). */
  missing: string[];
  counts: { checklist: number; segment: number; grouped: number };
  totals: { frames: number; images: number; tokens: number };
}

/**
 * Every judge call `compass evaluate` would make, without making one: checklists per case, mode
 * and metric; with the judge segmenter one segmentation per video; the grouped quality calls per
 * video and run. Videos are probed (their size and length set the frames and tokens).
 */
export async function planEvaluation(o: {
  cases: readonly LoadedCase[];
  modes: readonly PromptMode[];
  models: readonly string[];
  videos: string;
  quality: QualityOptions;
  runs: number;
  maxSide: number;
  segmenter: 'pixel' | 'judge';
}): Promise<EvaluationPlan> {
  const missing: string[] = [];
  const grouped: CallPlan[] = [];
  const segments: CallPlan[] = [];
  let kfTokens = 0;
  for (const model of o.models)
    for (const c of o.cases)
      for (const mode of o.modes) {
        const file = videoPath(o.videos, model, c.case_id, mode);
        if (!existsSync(file)) {
          missing.push(file);
          continue;
        }
        const info = await probe(file);
        kfTokens ||= imageTokens(info.width, info.height, o.maxSide);
        const label = `${model}/${c.case_id}__${mode}`;
        if (o.segmenter === 'judge') segments.push(segmentPlan(c, { label, ...info }, o.quality, o.maxSide));
        grouped.push(...videoPlan(c, mode, { label, ...info }, o.quality, o.maxSide));
      }
  const checklists = o.cases.flatMap((c) =>
    o.modes.flatMap((mode) => checklistPlan(c, mode, o.quality, kfTokens)),
  );
  const calls = [
    ...checklists,
    ...segments,
    ...Array.from({ length: o.runs }, (_, r) =>
      grouped.map((g) => (o.runs > 1 ? { ...g, what: `${g.what} (run ${r + 1})` } : g)),
    ).flat(),
  ];
  const sum = (f: (c: CallPlan) => number) => calls.reduce((s, c) => s + f(c), 0);
  return {
    calls,
    missing,
    counts: { checklist: checklists.length, segment: segments.length, grouped: grouped.length * o.runs },
    totals: { frames: sum((c) => c.frames), images: sum((c) => c.images), tokens: sum((c) => c.tokens) },
  };
}
