/**
 * The two Compass leaderboards (seed §4.2, Table 3): the joint audio-video one over the common set
 * of cases every model that answered with audio answered, ranking by default whenever audio was
 * judged; the video-only one over all cases for every model; which table ranks, its formula and its
 * cases named in leaderboard.json; `rerank` for `compass report --rank-by`.
 */
import { describe, expect, it } from 'vitest';
import { overallOf } from '../../../src/compass/overall/aggregate.js';
import { FORMULAS, formulaOf, leaderboard, rerank } from '../../../src/compass/overall/leaderboard.js';
import { qualityGroups } from '../../../src/compass/quality/groups.js';
import { VideoEvaluation } from '../../../src/compass/schemas/evaluation.js';
import { Leaderboard } from '../../../src/compass/schemas/leaderboard.js';
import type { QualityMetricReport } from '../../../src/compass/schemas/quality.js';
import { UsageError } from '../../../src/errors.js';

interface Spec {
  kf: number;
  to: number;
  q: number;
  /** AVC when judged on a track. */
  avc?: number;
  /** The video has an audio track. */
  track?: boolean;
  /** Audio was judged (--judge-audio). */
  heard?: boolean;
  status?: 'scored' | 'missing';
}

function video(model: string, case_id: string, prompt_mode: 'minimal' | 'segment_specific', s: Spec) {
  const scored = (score: number): QualityMetricReport => ({ status: 'scored', score });
  const missing = s.status === 'missing';
  const avc: QualityMetricReport = missing
    ? scored(0)
    : !s.heard
      ? { status: 'not_measured', score: null }
      : s.track
        ? scored(s.avc ?? 0.5)
        : { status: 'not_applicable', score: null, reason: 'the video has no audio track' };
  const metrics = {
    SVQ: scored(s.q),
    DVQ: scored(s.q),
    AC: scored(s.q),
    SOC: scored(s.q),
    PR: scored(s.q),
    VMA: scored(s.q),
    AMA: { status: 'not_applicable', score: null } as QualityMetricReport,
    AVC: avc,
  };
  const groups = qualityGroups(metrics);
  const quality = {
    frames: { count: 8, fps: 8, effective_fps: 8, capped_by_budget: false },
    metrics,
    groups,
    ...(missing ? {} : { audio_track: !!s.track }),
  };
  return VideoEvaluation.parse({
    case_id,
    model,
    prompt_mode,
    run: 0,
    status: s.status ?? 'scored',
    structure: 'multi_shot',
    n_keyframes: 3,
    conditioning: 'image_list',
    response: {
      metrics: {
        presence: s.kf,
        fidelity: s.kf,
        ordering: s.to,
        localization: s.to,
        persistence: s.to,
        uniqueness: s.to,
      },
      groups: { keyframe_fidelity: s.kf, temporal_organization: s.to },
    },
    quality,
    overall: overallOf(
      {
        keyframe_fidelity: s.kf,
        temporal_organization: s.to,
        visual_quality: groups.visual_quality.score,
        spatiotemporal_coherence: groups.spatiotemporal_coherence.score,
        instruction_adherence: groups.instruction_adherence.score,
      },
      quality,
    ),
  });
}

const MODES = ['minimal', 'segment_specific'] as const;
const CASES = ['c1', 'c2', 'c3'];
const META = { judge: 'j', embedder: 'e', runs: 1 };

/**
 * A answers everything with audio; B answers with audio except c1's segment-specific video (no
 * track) and lacks c3's minimal video; C never has an audio track. A has the better keyframe
 * control, C the better video quality.
 */
function videos(heard: boolean) {
  const out = [];
  for (const c of CASES)
    for (const mode of MODES) {
      out.push(video('A', c, mode, { kf: 0.9, to: 0.9, q: 0.6, avc: 0.8, track: true, heard }));
      out.push(
        c === 'c3' && mode === 'minimal'
          ? video('B', c, mode, { kf: 0, to: 0, q: 0, status: 'missing' })
          : video('B', c, mode, {
              kf: 0.7,
              to: 0.7,
              q: 0.7,
              avc: 0.6,
              track: !(c === 'c1' && mode === 'segment_specific'),
              heard,
            }),
      );
      out.push(video('C', c, mode, { kf: 0.5, to: 0.5, q: 0.95, track: false, heard }));
    }
  return out;
}

describe('the joint audio-video and the video-only leaderboards', () => {
  const all = videos(true);
  const lb = Leaderboard.parse(leaderboard(all, ['A', 'B', 'C'], META));

  it('audio judged: the joint table ranks by default, over the common set, without the model that never answered with audio', () => {
    expect(lb.table).toBe('joint');
    expect(lb.formula).toBe(FORMULAS.joint);
    // c3: B has no minimal video, so it is not in the set every compared model answered
    expect(lb.cases).toEqual({ count: 2, ids: ['c1', 'c2'] });
    expect(lb.models_without_audio).toEqual(['C']);
    expect(lb.models.map((m) => m.model)).toEqual(['A', 'B']);
    const a = lb.models.find((m) => m.model === 'A')!;
    // per mode: mean(keyframe control 0.9, visual 0.6, coherence 0.6, adherence 0.6, AV 0.8)
    expect(a.overall).toBeCloseTo((0.9 + 0.6 * 3 + 0.8) / 5, 12);
    expect(a.cases).toBe(2);
    expect(a.no_audio_track).toEqual([]);
  });

  it('a video without an audio track on the joint table scores AV Coordination 0 and is marked, never dropped', () => {
    const b = lb.models.find((m) => m.model === 'B')!;
    expect(b.no_audio_track).toEqual(['c1__segment_specific']);
    const withAv = (0.7 * 4 + 0.6) / 5;
    const silent = (0.7 * 4 + 0) / 5;
    // c1: the mean of its two modes (one without a track); c2: both with audio
    expect(b.overall).toBeCloseTo(((withAv + silent) / 2 + withAv) / 2, 12);
    // the common set only: c1 and c2, four videos, one without a track
    expect(b.groups.av_coordination).toBeCloseTo((0.6 * 3 + 0) / 4, 12);
  });

  it('--joint-cases with-audio: the other reading of the common set, only the cases every video of which has an audio track', () => {
    const w = Leaderboard.parse(leaderboard(all, ['A', 'B', 'C'], { ...META, jointCases: 'with-audio' }));
    // c1: B's segment-specific video has no track, so c1 leaves the set; nothing is marked then
    expect(w.cases).toEqual({ count: 1, ids: ['c2'] });
    expect(w.models.find((m) => m.model === 'B')!.no_audio_track).toEqual([]);
    expect(w.formula).toBe(formulaOf('joint', 'combined', { jointCases: 'with-audio' }));
    expect(w.formula).toMatch(/--joint-cases with-audio/);
    // the video-only table does not depend on it
    expect(w.other).toEqual(lb.other);
  });

  it('the formula names each reading that is not the default', () => {
    expect(formulaOf('video', 'combined', { videoQuality: 'one' })).toMatch(
      /^Video Quality = mean\(Visual Quality, Spatiotemporal Coherence, Instruction Adherence\); .*mean\(keyframe control, Video Quality\).*--video-quality one/,
    );
    expect(formulaOf('joint')).toBe(FORMULAS.joint);
    expect(FORMULAS.joint).not.toMatch(/--/);
  });

  it('the video-only table: every model over all cases, no AV Coordination, keyframe control as one group', () => {
    const v = lb.other!;
    expect(v.table).toBe('video');
    expect(v.formula).toBe(FORMULAS.video);
    expect(v.cases).toEqual({ count: 3, ids: CASES });
    expect(v.models.map((m) => m.model)).toEqual(['C', 'A', 'B']);
    const c = v.models.find((m) => m.model === 'C')!;
    expect(c.overall).toBeCloseTo((0.5 + 0.95 * 3) / 4, 12);
    expect(c.groups.keyframe_control).toBeCloseTo(0.5, 12);
    // B's missing video scores 0 in its case (--missing zero)
    const b = v.models.find((m) => m.model === 'B')!;
    expect(b.overall).toBeCloseTo((0.7 + 0.7 + 0.35) / 3, 12);
  });

  it('--rank-by video puts the video-only table on top and keeps the joint one beside it; back again is the same file', () => {
    const byVideo = rerank(lb, 'video');
    expect(byVideo.table).toBe('video');
    expect(byVideo.models.map((m) => m.model)).toEqual(['C', 'A', 'B']);
    expect(byVideo.other?.table).toBe('joint');
    expect(byVideo.other?.cases.ids).toEqual(['c1', 'c2']);
    expect(Leaderboard.parse(rerank(byVideo, 'joint'))).toEqual(lb);
    expect(leaderboard(all, ['A', 'B', 'C'], META, 'zero', [], 'video')).toEqual(byVideo);
  });

  it('audio not judged: only the video-only table, and --rank-by joint is a usage error', () => {
    const quiet = leaderboard(videos(false), ['A', 'B', 'C'], META);
    expect(quiet.table).toBe('video');
    expect(quiet.other).toBeUndefined();
    expect(quiet.models.map((m) => m.model)).toEqual(['C', 'A', 'B']);
    expect(() => leaderboard(videos(false), ['A', 'B', 'C'], META, 'zero', [], 'joint')).toThrow(UsageError);
    expect(() => rerank(quiet, 'joint')).toThrow(/audio was not judged/);
  });
});
