/**
 * The Compass video-quality part of the demo: `compass evaluate` (both axes, then Overall) of a few
 * mini "models" in both prompt modes, judged by the VLM emulator started in-process on 127.0.0.1
 * and reached over HTTP through the real client. The keyframe-response scans come from the scan
 * cache the response demo filled; judge answers are cached, so a warm run asks nothing, and the
 * evaluation cache maps each video to its answers, so a warm run decodes nothing either. Shots
 * come from the judge segmenter at the quality judge's frame settings, as `compass evaluate` does by
 * default (`--segmenter judge`). Audio is judged as `compass evaluate` does by default (no flag):
 * every mini video has a sound track, so AV Coordination is asked of every video ("Audio-Visual Coordination judges
 * intrinsic audio–video semantic and temporal agreement independently of the prompt", App. D) and
 * Audio Adherence only where the case requests audio ("not applicable when no audio requirement
 * exists", §E.3); the leaderboard then ranks by the joint audio-video table, as `compass evaluate`
 * does by default once audio is judged.
 */
import { join } from 'node:path';
import { loadCases, PROMPT_MODES } from '../compass/cases/cases.js';
import { leaderboard } from '../compass/overall/leaderboard.js';
import { evaluationCacheIn } from '../compass/quality/eval-cache.js';
import { judgeSegmenter } from '../compass/quality/segment.js';
import { DEFAULT_QUALITY_OPTIONS } from '../compass/quality/video.js';
import { evaluateCompass } from '../compass/run/evaluate.js';
import { writeEvaluationRun } from '../compass/run/outputs.js';
import { ScanCache } from '../compass/scan/cache.js';
import type { Leaderboard } from '../compass/schemas/leaderboard.js';
import { createBuiltinEmbedder } from '../embed/builtin.js';
import { resolveJudgeSettings } from '../judge/precedence.js';
import { openJudge } from '../judge/registry.js';
import { probe } from '../media/probe.js';
import type { OnProgress } from '../progress.js';
import { startEmulator } from './emulator/server.js';
import type { MiniCompassPaths } from './mini-compass/build.js';

/** One clean model, two keyframe-response faults, three quality faults and an audio fault. */
export const DEMO_QUALITY_MODELS = [
  'faithful',
  'swapped',
  'missing',
  'blurred',
  'flicker',
  'frozen',
  'audio-lag',
] as const;

export interface CompassQualityDemo {
  leaderboard: Leaderboard;
  out: string;
  videos: number;
  calls: number;
  cached: number;
  unresolved: number;
}

export async function runCompassQualityDemo(
  root: string,
  mini: Pick<MiniCompassPaths, 'cases' | 'videos'>,
  scanCache: string,
  onProgress: OnProgress,
): Promise<CompassQualityDemo> {
  const cases = await loadCases(mini.cases);
  const out = join(root, 'compass-eval');
  const emu = await startEmulator();
  const cache = new ScanCache(scanCache);
  const embedder = createBuiltinEmbedder();
  const t0 = Date.now();
  try {
    const judge = await openJudge(
      resolveJudgeSettings(
        { judge: `openai:kfbench-emulator@${emu.url}`, cache: join(out, 'judge-cache.sqlite') },
        {},
      ),
    );
    try {
      const models = [...DEMO_QUALITY_MODELS];
      const evaluationCache = evaluationCacheIn(judge.cache);
      // compass evaluate's default for these files: every mini video carries a sound track (the
      // mini build puts one on each; test/compass/quality/audio.test.ts checks it), so audio is
      // judged without a flag. Known here rather than probed: a warm demo reads no video.
      const q = { ...DEFAULT_QUALITY_OPTIONS, audio: true };
      const r = await evaluateCompass({
        cases,
        videos: mini.videos,
        models,
        modes: PROMPT_MODES,
        embedder,
        judge: judge.judge,
        encoder: judge.encoder,
        cache,
        evaluationCache,
        quality: q,
        // compass evaluate's default decoder threads (--decode-threads 1)
        scan: { decodeThreads: 1 },
        // compass evaluate's default segmenter, with the frames it would send
        segment: judgeSegmenter(judge.judge, judge.encoder, probe, evaluationCache, {
          fps: q.fps,
          frameWidth: q.frameWidth,
          budget: q.budget,
        }),
        onProgress,
      });
      const lb = leaderboard(
        r.videos,
        models,
        { judge: judge.judge.name, embedder: embedder.id, runs: 1, segmenter: 'judge' },
        'zero',
        r.checklists,
      );
      await writeEvaluationRun(out, r, lb, models, {
        wall_s: (Date.now() - t0) / 1000,
        judge: judge.judge.stats,
      });
      const s = judge.judge.stats;
      return {
        leaderboard: lb,
        out,
        videos: r.videos.length,
        calls: s.calls,
        cached: s.cached,
        unresolved: s.unresolved,
      };
    } finally {
      await judge.close();
    }
  } finally {
    cache.close();
    await embedder.close();
    await emu.close();
  }
}
