/**
 * `kfbench compass evaluate`: both axes end to end. The flags are parsed into the run's options
 * object (`compassEvaluateInput` → `CompassEvaluateInput`), the run is `evaluateCompassRun` (or
 * `planCompassEvaluation` for `--dry-run`, src/runs/compass-evaluate.ts), and its result is printed here.
 */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { KEYFRAME_CONTROL_READINGS, VIDEO_QUALITY_READINGS } from '../compass/overall/aggregate.js';
import { JOINT_CASES_READINGS } from '../compass/overall/leaderboard.js';
import { audioDecisionLine } from '../compass/quality/audio-default.js';
import { ITEM_RULES } from '../compass/quality/grouped.js';
import type { EvaluationPlan } from '../compass/quality/plan.js';
import { DEFAULT_QUALITY_OPTIONS, type QualityOptions } from '../compass/quality/video.js';
import { budgetCheck } from '../compass/run/evaluate.js';
import { UsageError } from '../errors.js';
import { resolveJudgeSettings } from '../judge/precedence.js';
import { checkUnresolved, unresolvedLine } from '../judge/unresolved.js';
import { leaderboardText } from '../report/compass.js';
import { textTable } from '../report/table.js';
import type { CompassEvaluateInput } from '../runs/compass-evaluate.js';
import { metricFlagSpecs } from './compass-metric-flags.js';
import {
  JOBS_HELP,
  JOINT_CASES_HELP,
  KEYFRAME_CONTROL_HELP,
  MISSING_HELP,
  modelFolderFlagSpecs,
  partial,
  RANK_BY_HELP,
  rankBy,
  runInput,
  SEGMENTER_HELP,
  SHARD_FLAG_SPECS,
  showMissing,
  showModesNote,
  VIDEO_QUALITY_HELP,
} from './compass-options.js';
import { SCAN_CACHE_FLAG_SPECS } from './compass-scan-cache.js';
import { addFlags, type FlagValues, flagSpecs } from './flags.js';
import type { CliImpls } from './impls.js';
import { withInterruptShown } from './interrupt.js';
import { judgeFlagSpecs, judgeFlags, maxUnresolvedSpecs, parseMaxUnresolved } from './judge.js';
import { oneOf, parseNumberFlag, printLines, printNotice } from './output.js';

/** `--dry-run`: every call with its frames, images and estimated prompt tokens, then the totals. */
function dryRunLines(p: EvaluationPlan, quality: QualityOptions): string[] {
  return [
    ...textTable(
      ['call', 'kind', 'frames', 'images', '≈ prompt tokens'],
      p.calls.map((c) => [c.what, c.kind, String(c.frames), String(c.images), String(c.tokens)]),
    ),
    ...p.missing.map((m) => `missing (no calls): ${m}`),
    `total: ${p.calls.length} calls (${p.counts.checklist} checklist, ${p.counts.segment} segment, ${p.counts.grouped} grouped), ${p.totals.frames} frames, ${p.totals.images} images, ≈ ${p.totals.tokens} prompt tokens; frames at ${quality.fps} fps${quality.budget === undefined ? ' over the whole video' : `, at most ${quality.budget} per video`}; nothing was asked`,
  ];
}

/** `compass evaluate`'s flags and their help, declared once: the parsed options' type is inferred from them. */
function evaluateFlagSpecs() {
  return flagSpecs({
    ...modelFolderFlagSpecs('evaluate', 'compass-eval'),
    runs: {
      flags: '--runs <n>',
      description: 'repeat the quality judging n times (mean ± sd)',
      default: '1',
    },
    missing: { flags: '--missing <policy>', description: MISSING_HELP, default: 'zero' },
    segmenter: { flags: '--segmenter <kind>', description: SEGMENTER_HELP, default: 'judge' },
    rankBy: { flags: '--rank-by <table>', description: RANK_BY_HELP },
    keyframeControl: {
      flags: '--keyframe-control <how>',
      description: KEYFRAME_CONTROL_HELP,
      default: 'combined',
    },
    videoQuality: { flags: '--video-quality <how>', description: VIDEO_QUALITY_HELP, default: 'groups' },
    jointCases: { flags: '--joint-cases <which>', description: JOINT_CASES_HELP, default: 'answered' },
    qualityFps: {
      flags: '--quality-fps <r>',
      description: 'frames per second sent to the judge',
      default: String(DEFAULT_QUALITY_OPTIONS.fps),
    },
    frameBudget: {
      flags: '--frame-budget <n>',
      description:
        'opt-in: at most this many frames per video (lowers the rate of longer videos; reported per video)',
    },
    frameWidth: {
      flags: '--frame-width <px>',
      description: 'width of the frames sent',
      default: String(DEFAULT_QUALITY_OPTIONS.frameWidth),
    },
    judgeAudio: {
      flags: '--judge-audio',
      description:
        'judge audio (AMA and AVC): by default yes when the videos carry sound tracks, for the joint audio-video leaderboard',
      negatable: 'do not judge audio (a judge that takes no audio input): no joint audio-video leaderboard',
    },
    itemRule: {
      flags: '--item-rule <rule>',
      description:
        'an item whose score is off the anchors or whose support contradicts it: strict (dropped, counted) | snap (kept: snapped to the nearest anchor, the score over the support; counted)',
      default: 'strict',
    },
    maxTokens: { flags: '--max-tokens <n>', description: 'reply budget per call', default: '2048' },
    maxCalls: {
      flags: '--max-calls <n>',
      description: 'make at most this many judge calls, checklists included (exit 5; run again to resume)',
    },
    jobs: { flags: '--jobs <n>', description: JOBS_HELP, default: '1' },
    dryRun: {
      flags: '--dry-run',
      description: 'print the judge calls needed and how many the judge cache already holds; spend none',
    },
    ...metricFlagSpecs(),
    ...judgeFlagSpecs({ cacheDefault: '<out>/judge-cache.sqlite' }),
    ...SCAN_CACHE_FLAG_SPECS,
    ...maxUnresolvedSpecs('quality metrics asked of the judge'),
    ...SHARD_FLAG_SPECS,
  });
}

/** `compass evaluate`'s flags as commander gives them. */
type EvaluateFlags = FlagValues<ReturnType<typeof evaluateFlagSpecs>>;

/** The flags parsed into the run's options object (`evaluateCompassRun`, src/runs/compass-evaluate.ts). */
export function compassEvaluateInput(o: EvaluateFlags): Omit<
  CompassEvaluateInput,
  'signal' | 'onProgress'
> & {
  out: string;
} {
  const out = resolve(o.out);
  const int = (name: string, v: string, min: number) =>
    parseNumberFlag(name, v, (n) => Number.isInteger(n) && n >= min);
  const runs = int('--runs', o.runs, 1);
  const quality = {
    fps: parseNumberFlag('--quality-fps', o.qualityFps, (n) => n > 0),
    budget: o.frameBudget === undefined ? undefined : int('--frame-budget', o.frameBudget, 1),
    frameWidth: int('--frame-width', o.frameWidth, 16),
    audio: o.judgeAudio === true,
    // recorded (settings.json, run records) only when not the default
    ...(o.itemRule !== 'strict' ? { itemRule: oneOf('--item-rule', o.itemRule, ITEM_RULES) } : {}),
  };
  // neither --judge-audio nor --no-judge-audio: audio is judged when the videos carry sound tracks
  const audioByTracks = o.judgeAudio === undefined;
  const input = runInput(o, 'judge');
  const flags = judgeFlags(o);
  const judge = resolveJudgeSettings({
    ...flags,
    cache: flags.cache ?? join(out, 'judge-cache.sqlite'),
    maxTokens: int('--max-tokens', o.maxTokens, 16),
  });
  const maxCalls = o.maxCalls ? int('--max-calls', o.maxCalls, 0) : undefined;
  const ranking = rankBy(o.rankBy);
  if (ranking === 'joint' && o.judgeAudio === false)
    throw new UsageError(
      '--rank-by joint with --no-judge-audio: the joint audio-video leaderboard needs AV Coordination judged',
    );
  const keyframeControl = oneOf('--keyframe-control', o.keyframeControl, KEYFRAME_CONTROL_READINGS);
  const videoQuality = oneOf('--video-quality', o.videoQuality, VIDEO_QUALITY_READINGS);
  const jointCases = oneOf('--joint-cases', o.jointCases, JOINT_CASES_READINGS);
  return {
    ...input,
    judge,
    quality,
    audioByTracks,
    runs,
    maxCalls,
    rankBy: ranking,
    keyframeControl,
    // recorded in settings.json only when not the default, as before these flags
    ...(videoQuality !== 'groups' ? { videoQuality } : {}),
    ...(jointCases !== 'answered' ? { jointCases } : {}),
    out,
  };
}

async function runEvaluate(o: EvaluateFlags, impls: CliImpls): Promise<void> {
  const maxUnresolved = parseMaxUnresolved(o.maxUnresolved);
  const input = compassEvaluateInput(o);
  const out = input.out;
  if (o.dryRun) {
    const d = await withInterruptShown((signal, onProgress) =>
      impls.planCompassEvaluation({ ...input, signal, onProgress }),
    );
    printNotice(audioDecisionLine(d.audio));
    printLines([
      ...dryRunLines(d.plan, input.quality),
      `calls needed: ${Math.max(0, d.plan.calls.length - d.cached)}; already cached: ${d.cached} (judge cache ${d.judgeCache}${d.judgeCacheExists ? '' : ', not made yet'})`,
    ]);
    return;
  }
  const {
    result: r,
    leaderboard: lb,
    judge: s,
    audio,
  } = await withInterruptShown((signal, onProgress) =>
    impls.evaluateCompassRun({ ...input, signal, onProgress }),
  );
  showModesNote(o);
  showMissing(r.response, input.videos);
  printNotice(audioDecisionLine(audio));
  printNotice(lb.embedder_notice);
  printLines([
    leaderboardText(lb, { factors: false }),
    `judge calls ${s.calls}, from the cache ${s.cached}, unresolved ${s.unresolved}; results in ${out}`,
    ...(lb.unresolved ? [unresolvedLine(lb.unresolved, maxUnresolved, 'quality metrics judged')] : []),
  ]);
  // the budget first: its message names every video left for the next run
  budgetCheck(r);
  partial(r.response);
  if (lb.unresolved)
    checkUnresolved(lb.unresolved, maxUnresolved, join(out, 'evaluation.jsonl'), 'quality metrics judged');
}

export function registerCompassEvaluate(compass: Command, impls: CliImpls): void {
  const cmd = compass
    .command('evaluate')
    .description('both axes end to end: keyframe response and MLLM checklist video quality, then Overall');
  addFlags(cmd, evaluateFlagSpecs()).action((o: EvaluateFlags) => runEvaluate(o, impls));
}
