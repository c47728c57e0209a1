/**
 * `compass evaluate`: both axes end to end — keyframe response (scan cache) and video quality
 * (checklists once per case, prompt mode and metric; then the grouped judge per video) — and the
 * aggregation of SPEC §3.3 step 4. Every judge call goes through the judge cache, so an interrupted
 * run resumes and a repeated run makes no calls. `runs` > 1 repeats the quality judging with
 * separately cached answers (run k's questions carry `#run k` in their protocol version), for a
 * mean and standard deviation per model.
 */
import type { Embedder } from '../../embed/embedder.js';
import { PartialError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { cameraMotion } from '../../media/motion.js';
import { probe } from '../../media/video.js';
import { type LoadedCase, type PromptMode, videoPath } from '../cases.js';
import type { ResponseOptions, ScanOptions } from '../response/options.js';
import type { ScanCache } from '../response/scan-cache.js';
import { type ResponseRow, type ScoreRun, scoreModels } from '../score.js';
import type { SegmentFn } from '../segment.js';
import { caseOverall, type OverallResult, overallOf, qualityGroups } from './aggregate.js';
import { type Checklist, generateChecklist } from './checklist.js';
import { applicability, QUALITY_GROUPS, QUALITY_METRICS, type QualityMetric } from './metrics.js';
import {
  DEFAULT_QUALITY_OPTIONS,
  judgeVideoQuality,
  type QualityOptions,
  type QualityReport,
} from './video.js';

export interface VideoEvaluation {
  case_id: string;
  model: string;
  prompt_mode: PromptMode;
  run: number;
  /** scored; or missing / failed (not decodable): 0 on every metric. */
  status: ResponseRow['status'];
  structure: LoadedCase['structure'];
  n_keyframes: number;
  conditioning: LoadedCase['conditioning'];
  response: Pick<ResponseRow, 'metrics' | 'groups'>;
  quality: QualityReport;
  overall: OverallResult;
}

export interface EvaluateInput {
  cases: readonly LoadedCase[];
  videos: string;
  models: readonly string[];
  modes: readonly PromptMode[];
  embedder: Embedder;
  judge: Judge;
  encoder: ImageEncoder;
  response?: Partial<ResponseOptions>;
  scan?: Partial<ScanOptions>;
  quality?: Partial<QualityOptions>;
  cache?: ScanCache | undefined;
  /** Shot segmentation by the judge (the published evaluator's; absent = the pixel detector). */
  segment?: SegmentFn | undefined;
  runs?: number;
  /** Stop starting new videos once the judge has made this many calls (exit 5; run again to resume). */
  maxCalls?: number;
  /** Judging progress: done = 0 before the first video, then per video judged. */
  onVideo?: (done: number, total: number, label: string) => void;
  /** Progress of the phases before judging: scanning videos, generating checklists (done = 0 first). */
  onPhase?: (phase: 'scanning' | 'checklists', done: number, total: number, label: string) => void;
}

export interface EvaluateResult {
  response: ScoreRun;
  checklists: Checklist[];
  videos: VideoEvaluation[];
  /** Videos not judged because the call budget ran out. */
  skipped: string[];
}

/** The metrics a case needs checklists for in a mode (those that apply, and are not audio-only without audio). */
export function checklistMetrics(
  c: LoadedCase,
  mode: PromptMode,
  q: Pick<QualityOptions, 'audio'>,
): QualityMetric[] {
  return QUALITY_METRICS.filter(
    (m) => applicability(c, mode, m).applies && (q.audio || (m !== 'AMA' && m !== 'AVC')),
  );
}

/** How many grouped-judge calls a video of this case and mode needs (groups with a metric to ask). */
export function groupsToAsk(c: LoadedCase, mode: PromptMode, q: Pick<QualityOptions, 'audio'>): number {
  const ask = new Set(checklistMetrics(c, mode, q));
  return Object.values(QUALITY_GROUPS).filter((g) => g.some((m) => ask.has(m))).length;
}

export async function evaluateCompass(o: EvaluateInput): Promise<EvaluateResult> {
  const q = { ...DEFAULT_QUALITY_OPTIONS, ...o.quality };
  const response = await scoreModels({
    cases: o.cases,
    videos: o.videos,
    models: o.models,
    modes: o.modes,
    embedder: o.embedder,
    response: o.response,
    scan: o.scan,
    cache: o.cache,
    segment: o.segment,
    onVideo: (done, total, label) => o.onPhase?.('scanning', done, total, label),
  });
  const checklists: Checklist[] = [];
  const toWrite = o.cases.reduce(
    (s, c) => s + o.modes.reduce((t, mode) => t + checklistMetrics(c, mode, q).length, 0),
    0,
  );
  let written = 0;
  o.onPhase?.('checklists', 0, toWrite, '');
  const byKey = new Map<string, Map<QualityMetric, Checklist>>();
  for (const c of o.cases)
    for (const mode of o.modes) {
      const m = new Map<QualityMetric, Checklist>();
      for (const metric of checklistMetrics(c, mode, q)) {
        const cl = await generateChecklist(o.judge, o.encoder, c, mode, metric);
        checklists.push(cl);
        o.onPhase?.('checklists', ++written, toWrite, `${c.case_id}__${mode} ${metric}`);
        m.set(metric, cl);
      }
      byKey.set(`${c.case_id}/${mode}`, m);
    }
  const cases = new Map(o.cases.map((c) => [c.case_id, c]));
  const runs = Math.max(1, o.runs ?? 1);
  const videos: VideoEvaluation[] = [];
  const skipped: string[] = [];
  const total = response.rows.length * runs;
  let done = 0;
  o.onVideo?.(0, total, 'judging');
  for (let run = 0; run < runs; run++) {
    const judge = run === 0 ? o.judge : runJudge(o.judge, run);
    for (const row of response.rows) {
      const video = videoPath(o.videos, row.model, row.case_id, row.prompt_mode);
      if (row.status !== 'scored') {
        // missing or undecodable: 0 on every metric of the case, never judged
        videos.push(zeroEvaluation(row, run, cases.get(row.case_id)!, q));
        o.onVideo?.(++done, total, `${row.model}/${row.case_id}__${row.prompt_mode}`);
        continue;
      }
      if (o.maxCalls !== undefined && o.judge.stats.calls >= o.maxCalls) {
        skipped.push(`${video}${runs > 1 ? ` (run ${run + 1})` : ''}`);
        continue;
      }
      const c = cases.get(row.case_id)!;
      const motion = (await cameraMotion(await probe(video), row.shots)).map(
        (m, i) => `shot ${i + 1} [${m.start_s.toFixed(2)}, ${m.end_s.toFixed(2)}) s: ${m.motion}`,
      );
      const quality = await judgeVideoQuality({
        judge,
        encoder: o.encoder,
        c,
        mode: row.prompt_mode,
        video,
        checklists: byKey.get(`${row.case_id}/${row.prompt_mode}`)!,
        shots: row.shots,
        motion,
        options: q,
      });
      videos.push({
        case_id: row.case_id,
        model: row.model,
        prompt_mode: row.prompt_mode,
        run,
        status: 'scored',
        structure: row.structure,
        n_keyframes: row.n_keyframes,
        conditioning: row.conditioning,
        response: { metrics: row.metrics, groups: row.groups },
        quality,
        overall: overallOf({
          keyframe_fidelity: row.groups.keyframe_fidelity,
          temporal_organization: row.groups.temporal_organization,
          visual_quality: quality.groups.visual_quality.score,
          spatiotemporal_coherence: quality.groups.spatiotemporal_coherence.score,
          instruction_adherence: quality.groups.instruction_adherence.score,
        }),
      });
      o.onVideo?.(++done, total, `${row.model}/${row.case_id}__${row.prompt_mode}`);
    }
  }
  return { response, checklists, videos, skipped };
}

/** A missing or undecodable video's evaluation: every applicable metric and group 0. */
export function zeroEvaluation(
  row: ResponseRow,
  run: number,
  c: LoadedCase,
  q: Pick<QualityOptions, 'fps'>,
): VideoEvaluation {
  const reason = `the video is ${row.status === 'missing' ? 'missing' : 'not decodable'}: 0 on every metric`;
  const metrics = Object.fromEntries(
    QUALITY_METRICS.map((m) => {
      const ap = applicability(c, row.prompt_mode, m);
      return [
        m,
        ap.applies
          ? { status: 'scored' as const, score: 0, reason }
          : { status: 'not_applicable' as const, score: null, reason: ap.reason },
      ];
    }),
  ) as QualityReport['metrics'];
  const quality: QualityReport = {
    frames: { count: 0, fps: q.fps, effective_fps: 0, capped_by_budget: false },
    metrics,
    groups: qualityGroups(metrics),
  };
  return {
    case_id: row.case_id,
    model: row.model,
    prompt_mode: row.prompt_mode,
    run,
    status: row.status,
    structure: row.structure,
    n_keyframes: row.n_keyframes,
    conditioning: row.conditioning,
    response: { metrics: row.metrics, groups: row.groups },
    quality,
    overall: overallOf({
      keyframe_fidelity: 0,
      temporal_organization: 0,
      visual_quality: quality.groups.visual_quality.score,
      spatiotemporal_coherence: quality.groups.spatiotemporal_coherence.score,
      instruction_adherence: quality.groups.instruction_adherence.score,
    }),
  };
}

/** The same judge with run k's questions cached apart (their protocol version carries `#run k`). */
function runJudge(judge: Judge, run: number): Judge {
  return new Proxy(judge, {
    get(target, prop, receiver) {
      if (prop === 'ask')
        return (question: Parameters<Judge['ask']>[0]) =>
          target.ask({
            ...question,
            protocol: { ...question.protocol, version: `${question.protocol.version}#run${run}` },
          });
      return Reflect.get(target, prop, receiver);
    },
  });
}

export interface ModelOverall {
  model: string;
  /** Mean over runs of the per-run Overall (mean over cases of the per-case Overall). */
  overall: number | null;
  /** Standard deviation over runs (0 for one run). */
  overall_sd: number;
  runs: number;
  cases: number;
  /** Groups that could not be measured for some case (left out of its mean, never zero). */
  flagged: string[];
  /** Videos whose judge frame rate an opt-in --frame-budget lowered: "case__mode at R fps". */
  below_rate: string[];
  /** Videos present (scored) / expected, per run; missing and undecodable ones are not present. */
  coverage: { present: number; expected: number };
  groups: Record<string, number | null>;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/** Overall per model (SPEC §3.3 step 4), optionally restricted to some videos (a factor's level). */
export function modelOverall(videos: readonly VideoEvaluation[], model: string): ModelOverall {
  const mine = videos.filter((v) => v.model === model);
  const runs = [...new Set(mine.map((v) => v.run))].sort((a, b) => a - b);
  const perRun: number[] = [];
  const flagged = new Set<string>();
  let caseCount = 0;
  for (const r of runs) {
    const inRun = mine.filter((v) => v.run === r);
    const byCase = new Map<string, OverallResult[]>();
    for (const v of inRun) byCase.set(v.case_id, [...(byCase.get(v.case_id) ?? []), v.overall]);
    const scores: number[] = [];
    for (const per of byCase.values()) {
      const co = caseOverall(per);
      for (const g of co.missing) flagged.add(g);
      if (co.score !== null) scores.push(co.score);
    }
    caseCount = byCase.size;
    if (scores.length) perRun.push(mean(scores));
  }
  const m = perRun.length ? mean(perRun) : null;
  const sd =
    perRun.length > 1 ? Math.sqrt(perRun.reduce((s, x) => s + (x - m!) ** 2, 0) / (perRun.length - 1)) : 0;
  const g = (f: (v: VideoEvaluation) => number | null) => {
    const xs = mine.map(f).filter((x): x is number => x !== null);
    return xs.length ? mean(xs) : null;
  };
  return {
    model,
    overall: m,
    overall_sd: sd,
    runs: runs.length,
    cases: caseCount,
    flagged: [...flagged].sort(),
    coverage: {
      present: mine.filter((v) => v.run === runs[0] && (v.status ?? 'scored') === 'scored').length,
      expected: mine.filter((v) => v.run === runs[0]).length,
    },
    below_rate: [
      ...new Set(
        mine
          .filter((v) => v.quality.frames.capped_by_budget)
          .map((v) => `${v.case_id}__${v.prompt_mode} at ${v.quality.frames.effective_fps.toFixed(2)} fps`),
      ),
    ].sort(),
    groups: {
      keyframe_fidelity: g((v) => v.response.groups.keyframe_fidelity),
      temporal_organization: g((v) => v.response.groups.temporal_organization),
      visual_quality: g((v) => v.quality.groups.visual_quality.score),
      spatiotemporal_coherence: g((v) => v.quality.groups.spatiotemporal_coherence.score),
      instruction_adherence: g((v) => v.quality.groups.instruction_adherence.score),
      av_coordination: g((v) => v.quality.groups.av_coordination.score),
    },
  };
}

/** Throw exit 5 when the budget left videos unjudged (the rest are written first by the caller). */
export function budgetCheck(r: EvaluateResult): void {
  if (r.skipped.length)
    throw new PartialError(
      `${r.skipped.length} video(s) not judged: the call budget ran out (run again to resume)`,
      r.skipped,
    );
}
