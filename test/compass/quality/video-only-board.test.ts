/**
 * Issue 54 item 2: the video-only leaderboard is the table for models without audio, so no audio
 * metric counts there — AMA (and AVC) are not applicable, a silent video on a case that asks for
 * audio is not charged AMA 0 in Instruction Adherence — and its reports show no AV column. The
 * joint audio-video table still counts both.
 */
import { describe, expect, it } from 'vitest';
import { overallOf } from '../../../src/compass/overall/aggregate.js';
import { leaderboard } from '../../../src/compass/overall/leaderboard.js';
import { qualityGroups } from '../../../src/compass/quality/groups.js';
import { VideoEvaluation } from '../../../src/compass/schemas/evaluation.js';
import { Leaderboard } from '../../../src/compass/schemas/leaderboard.js';
import type { QualityMetricReport } from '../../../src/compass/schemas/quality.js';
import { leaderboardHtml, leaderboardMarkdown, leaderboardText } from '../../../src/report/compass.js';

const scored = (score: number): QualityMetricReport => ({ status: 'scored', score });

/** One video on a case that requests audio: `track` says whether the model answered with sound. */
function video(model: string, case_id: string, mode: 'minimal' | 'segment_specific', track: boolean) {
  const metrics = {
    SVQ: scored(0.8),
    DVQ: scored(0.8),
    AC: scored(0.8),
    SOC: scored(0.8),
    PR: scored(0.8),
    VMA: scored(0.9),
    // the case asks for audio: a silent video's audio adherence is 0 (minimal prompts omit AMA)
    AMA:
      mode === 'minimal'
        ? ({ status: 'not_applicable', score: null } as QualityMetricReport)
        : scored(track ? 0.7 : 0),
    AVC: track ? scored(0.6) : ({ status: 'not_applicable', score: null } as QualityMetricReport),
  };
  const groups = qualityGroups(metrics);
  const quality = {
    frames: { count: 8, fps: 8, effective_fps: 8, capped_by_budget: false },
    metrics,
    groups,
    audio_track: track,
  };
  const response = { keyframe_fidelity: 0.5, temporal_organization: 0.5 };
  return VideoEvaluation.parse({
    case_id,
    model,
    prompt_mode: mode,
    run: 0,
    status: 'scored',
    structure: 'multi_shot',
    n_keyframes: 3,
    conditioning: 'image_list',
    response: {
      metrics: {
        presence: 0.5,
        fidelity: 0.5,
        ordering: 0.5,
        localization: 0.5,
        persistence: 0.5,
        uniqueness: 0.5,
      },
      groups: response,
    },
    quality,
    overall: overallOf(
      {
        ...response,
        visual_quality: groups.visual_quality.score,
        spatiotemporal_coherence: groups.spatiotemporal_coherence.score,
        instruction_adherence: groups.instruction_adherence.score,
      },
      quality,
    ),
  });
}

const all = ['c1', 'c2'].flatMap((c) =>
  (['minimal', 'segment_specific'] as const).flatMap((mode) => [
    video('loud', c, mode, true),
    video('silent', c, mode, false),
  ]),
);
const lb = Leaderboard.parse(leaderboard(all, ['loud', 'silent'], { judge: 'j', embedder: 'e', runs: 1 }));

describe('the video-only table counts no audio metric (issue 54 item 2)', () => {
  it('a silent model is not charged AMA 0 there: Instruction Adherence is VMA alone, the same for both models', () => {
    const video = lb.other!;
    expect(video.table).toBe('video');
    const silent = video.models.find((m) => m.model === 'silent')!;
    const loud = video.models.find((m) => m.model === 'loud')!;
    expect(silent.groups.instruction_adherence).toBeCloseTo(0.9, 12);
    expect(loud.groups.instruction_adherence).toBeCloseTo(0.9, 12);
    // mean(keyframe control 0.5, visual 0.8, coherence 0.8, adherence 0.9), both modes alike
    expect(silent.overall).toBeCloseTo((0.5 + 0.8 + 0.8 + 0.9) / 4, 12);
    expect(loud.overall).toBeCloseTo(silent.overall!, 12);
    expect(silent.flagged).toEqual([]);
  });

  it('the video-only table has no AV Coordination group; the joint table keeps AMA and AV', () => {
    for (const m of lb.other!.models) expect(m.groups).not.toHaveProperty('av_coordination');
    expect(lb.table).toBe('joint');
    const loud = lb.models.find((m) => m.model === 'loud')!;
    // joint: segment-specific adherence mean(VMA 0.9, AMA 0.7), minimal VMA 0.9
    expect(loud.groups.instruction_adherence).toBeCloseTo((0.8 + 0.9 + 0.8 + 0.9) / 4, 12);
    expect(loud.groups.av_coordination).toBeCloseTo(0.6, 12);
    // the model that never answered with sound is off the joint table, on the video-only one
    expect(lb.models_without_audio).toEqual(['silent']);
  });

  it('the reports show an AV column on the joint table only', () => {
    const header = (line: string | undefined) => (line ?? '').split(/\s{2,}|\s*\|\s*/).filter(Boolean);
    const text = leaderboardText(lb, { factors: false }).split('\n');
    const heads = text.filter((l) => /^model\s/.test(l));
    expect(heads).toHaveLength(2);
    expect(header(heads[0])).toContain('AV');
    expect(header(heads[1])).not.toContain('AV');
    const md = leaderboardMarkdown(lb)
      .split('\n')
      .filter((l) => l.startsWith('| model'));
    expect(header(md[0])).toContain('AV');
    expect(header(md.at(-1))).not.toContain('AV');
    const html = leaderboardHtml(lb);
    const tables = html.split('<table>').slice(1);
    expect(tables[0]).toContain('<th>AV</th>');
    expect(tables.at(-1)).not.toContain('<th>AV</th>');
  });
});
