/** `kfbench compass evaluate | mini`: both axes judged and scored, and the mini set. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadCases, PROMPT_MODES } from '../compass/cases.js';
import { compassShardRecord, selectCases } from '../compass/merge.js';
import { evaluationCacheIn } from '../compass/quality/eval-cache.js';
import { budgetCheck, type EvaluateInput } from '../compass/quality/evaluate.js';
import { leaderboard } from '../compass/quality/leaderboard.js';
import { writeEvaluationRun } from '../compass/quality/outputs.js';
import { cachedCalls, type EvaluationPlan, planEvaluation } from '../compass/quality/plan.js';
import { DEFAULT_QUALITY_OPTIONS, type QualityOptions } from '../compass/quality/video.js';
import { ScanCache } from '../compass/response/scan-cache.js';
import { checkVideosFolder } from '../compass/score.js';
import { judgeSegmenter } from '../compass/segment.js';
import { buildMiniCompass } from '../dev/mini-compass/build.js';
import { buildPublishedCompass } from '../dev/published-compass.js';
import { parseMiniSize } from '../dev/published-size.js';
import type { Embedder } from '../embed/embedder.js';
import { createEmbedder } from '../embed/registry.js';
import { judgeIdentity } from '../judge/identity.js';
import { type OpenedJudge, openJudge, resolveJudgeSettings } from '../judge/registry.js';
import { checkUnresolved, unresolvedLine } from '../judge/unresolved.js';
import { probe } from '../media/probe.js';
import { leaderboardText } from '../report/compass.js';
import { textTable } from '../report/table.js';
import { writeOutputFolder } from '../store/out-folder.js';
import { parseShard, writeOutputsRecord, writeShardRecord } from '../store/shards.js';
import {
  JOBS_HELP,
  type MetricFlags,
  MISSING_HELP,
  maxDuration,
  metricFlags,
  missingPolicy,
  parseJobs,
  parseModes,
  partial,
  responseOptions,
  SEGMENTER_HELP,
  scanCacheFile,
  scanCacheFlags,
  scanOptions,
  scanSettings,
  segmenterKind,
  shardFlags,
} from './compass-options.js';
import { onnxFlags } from './embed.js';
import type { CliImpls } from './impls.js';
import { withInterrupt } from './interrupt.js';
import { judgeFlags, judgeOptions, maxUnresolvedOption, parseMaxUnresolved } from './judge.js';
import { parseNumberFlag, printLines } from './output.js';
import { renderProgress } from './progress.js';

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

export function registerCompassEvaluate(compass: Command, impls: CliImpls): void {
  const evaluateCmd = judgeOptions(
    metricFlags(
      compass
        .command('evaluate')
        .description('both axes end to end: keyframe response and MLLM checklist video quality, then Overall')
        .requiredOption('--cases <file>', 'cases.jsonl')
        .requiredOption('--videos <dir>', 'folder of <model>/<case_id>__<prompt_mode>.mp4')
        .requiredOption('--model <names...>', 'model folders to evaluate')
        .option('--modes <list>', 'prompt modes', PROMPT_MODES.join(','))
        .option('--out <dir>', 'where results go', 'compass-eval')
        .option('--runs <n>', 'repeat the quality judging n times (mean ± sd)', '1')
        .option('--missing <policy>', MISSING_HELP, 'zero')
        .option('--segmenter <kind>', SEGMENTER_HELP, 'judge')
        .option(
          '--quality-fps <r>',
          'frames per second sent to the judge',
          String(DEFAULT_QUALITY_OPTIONS.fps),
        )
        .option(
          '--frame-budget <n>',
          'opt-in: at most this many frames per video (lowers the rate of longer videos; reported per video)',
        )
        .option('--frame-width <px>', 'width of the frames sent', String(DEFAULT_QUALITY_OPTIONS.frameWidth))
        .option('--judge-audio', 'the judge takes audio input (asks AMA and AVC)')
        .option('--max-tokens <n>', 'reply budget per call', '2048')
        .option(
          '--max-calls <n>',
          'make at most this many judge calls, checklists included (exit 5; run again to resume)',
        )
        .option('--jobs <n>', JOBS_HELP, '1')
        .option(
          '--dry-run',
          'print the judge calls needed and how many the judge cache already holds; spend none',
        ),
    ),
    { cacheDefault: '<out>/judge-cache.sqlite' },
  );
  scanCacheFlags(evaluateCmd, false);
  maxUnresolvedOption(evaluateCmd, 'quality metrics asked of the judge');
  shardFlags(evaluateCmd).action(
    async (
      o: MetricFlags &
        Parameters<typeof judgeFlags>[0] & {
          cases: string;
          videos: string;
          model: string[];
          modes: string;
          out: string;
          runs: string;
          missing: string;
          segmenter: string;
          qualityFps: string;
          frameBudget?: string;
          frameWidth: string;
          judgeAudio?: boolean;
          maxTokens: string;
          maxCalls?: string;
          jobs: string;
          dryRun?: boolean;
          scanCache?: string | false;
          shard?: string;
          caseIds?: string[];
          maxUnresolved: string;
        },
    ) => {
      const out = resolve(o.out);
      const maxUnresolved = parseMaxUnresolved(o.maxUnresolved);
      const int = (name: string, v: string, min: number) =>
        parseNumberFlag(name, v, (n) => Number.isInteger(n) && n >= min);
      const runs = int('--runs', o.runs, 1);
      const jobs = parseJobs(o.jobs);
      const missing = missingPolicy(o.missing);
      const segmenter = segmenterKind(o.segmenter);
      const quality = {
        fps: parseNumberFlag('--quality-fps', o.qualityFps, (n) => n > 0),
        budget: o.frameBudget === undefined ? undefined : int('--frame-budget', o.frameBudget, 1),
        frameWidth: int('--frame-width', o.frameWidth, 16),
        audio: !!o.judgeAudio,
      };
      const response = responseOptions(o);
      const scan = scanOptions(o);
      const maxDurationS = maxDuration(o);
      const modes = parseModes(o.modes);
      const allCases = await loadCases(o.cases);
      const shard = o.shard ? parseShard(o.shard) : undefined;
      const cases = selectCases(allCases, { caseIds: o.caseIds, shard });
      // a wrong --videos is bad input before any output (or cache) is written
      checkVideosFolder(o.videos, o.model, cases, modes);
      const flags = judgeFlags(o);
      const settings = resolveJudgeSettings({
        ...flags,
        cache: flags.cache ?? join(out, 'judge-cache.sqlite'),
        maxTokens: int('--max-tokens', o.maxTokens, 16),
      });
      /** What the evaluation reads, the same for a run and for a dry run's count of the cache. */
      const inputs = (
        judge: OpenedJudge,
        embedder: Embedder,
        cache: ScanCache | undefined,
        signal: AbortSignal,
      ): Omit<EvaluateInput, 'maxCalls' | 'onProgress'> => {
        const evaluationCache = evaluationCacheIn(judge.cache);
        return {
          cases,
          videos: o.videos,
          models: o.model,
          modes,
          embedder,
          judge: judge.judge,
          encoder: judge.encoder,
          response,
          scan,
          quality,
          cache,
          evaluationCache,
          runs,
          concurrency: settings.concurrency,
          maxDuration: maxDurationS,
          jobs,
          signal,
          ...(segmenter === 'judge'
            ? {
                segment: judgeSegmenter(judge.judge, judge.encoder, probe, evaluationCache, {
                  fps: quality.fps,
                  frameWidth: quality.frameWidth,
                  budget: quality.budget,
                }),
              }
            : {}),
        };
      };
      if (o.dryRun) {
        const plan = await planEvaluation({
          cases,
          modes,
          models: o.model,
          videos: o.videos,
          quality,
          runs,
          maxSide: settings.maxSide,
          segmenter,
        });
        // a dry run reads the caches, it never creates one
        const judgeFile = settings.cache!;
        const cached = existsSync(judgeFile)
          ? await withInterrupt(async (signal) => {
              const shown = renderProgress();
              const judge = await openJudge(settings, { signal, onProgress: shown.onProgress });
              let embedder: Embedder | undefined;
              let cache: ScanCache | undefined;
              try {
                embedder = await createEmbedder(o.embedder, onnxFlags(o));
                const scanFile = scanCacheFile(o);
                cache = scanFile !== undefined && existsSync(scanFile) ? new ScanCache(scanFile) : undefined;
                return await cachedCalls({
                  ...inputs(judge, embedder, cache, signal),
                  onProgress: shown.onProgress,
                });
              } finally {
                shown.close();
                cache?.close();
                await embedder?.close();
                await judge.close();
              }
            })
          : 0;
        printLines([
          ...dryRunLines(plan, quality),
          `calls needed: ${Math.max(0, plan.calls.length - cached)}; already cached: ${cached} (judge cache ${judgeFile}${existsSync(judgeFile) ? '' : ', not made yet'})`,
        ]);
        return;
      }
      await withInterrupt(async (signal) => {
        const shown = renderProgress();
        const judge = await openJudge(settings, { signal, onProgress: shown.onProgress });
        let embedder: Awaited<ReturnType<typeof createEmbedder>> | undefined;
        let cache: ScanCache | undefined;
        try {
          embedder = await createEmbedder(o.embedder, onnxFlags(o));
          const scanFile = scanCacheFile(o);
          cache = scanFile === undefined ? undefined : new ScanCache(scanFile);
          const t0 = Date.now();
          const r = await impls.evaluateCompass({
            ...inputs(judge, embedder, cache, signal),
            ...(o.maxCalls ? { maxCalls: int('--max-calls', o.maxCalls, 0) } : {}),
            onProgress: shown.onProgress,
          });
          shown.close();
          const lb = leaderboard(
            r.videos,
            o.model,
            { judge: judge.judge.name, embedder: embedder.id, runs, segmenter },
            missing,
            r.checklists,
          );
          const record = await compassShardRecord({
            kind: 'compass evaluate',
            casesFile: o.cases,
            all: selectCases(allCases, { caseIds: o.caseIds }),
            selected: cases,
            shard,
            complete: r.skipped.length === 0,
            settings: {
              videos: resolve(o.videos),
              models: o.model,
              modes,
              missing,
              embedder: embedder.id,
              segmenter,
              runs,
              response: { ...response },
              scan: scanSettings(scan),
              quality: { ...quality },
              judge: judgeIdentity(judge.judge.name, settings),
            },
          });
          // written beside --out and moved into place: a failure leaves --out as it was
          await writeOutputFolder(out, async (stage) => {
            await writeEvaluationRun(stage, r, lb, o.model, {
              wall_s: (Date.now() - t0) / 1000,
              judge: judge.judge.stats,
            });
            await writeShardRecord(stage, record);
            await writeOutputsRecord(stage, 'case_id');
          });
          const s = judge.judge.stats;
          printLines([
            leaderboardText({ ...lb, by: {} as typeof lb.by }),
            `judge calls ${s.calls}, from the cache ${s.cached}, unresolved ${s.unresolved}; results in ${out}`,
            ...(lb.unresolved
              ? [unresolvedLine(lb.unresolved, maxUnresolved, 'quality metrics judged')]
              : []),
          ]);
          // the budget first: its message names every video left for the next run
          budgetCheck(r);
          partial(r.response);
          if (lb.unresolved)
            checkUnresolved(
              lb.unresolved,
              maxUnresolved,
              join(out, 'evaluation.jsonl'),
              'quality metrics judged',
            );
        } finally {
          shown.close();
          cache?.close();
          await embedder?.close();
          await judge.close();
        }
      });
    },
  );

  compass
    .command('mini')
    .description('build the mini Compass set: 8 cases, 7 fault "models", both prompt modes')
    .requiredOption('--out <dir>', 'where to build it')
    .option(
      '--size <size>',
      'mini, or published (386 cases × 2 prompt modes, model faithful, 160×90 videos) or a fraction of it (1/8, 0.25): for scale benchmarks',
      'mini',
    )
    .action(async (o: { out: string; size: string }) => {
      const size = parseMiniSize(o.size);
      const shown = renderProgress();
      if (size.kind === 'published') {
        const p = await buildPublishedCompass(resolve(o.out), {
          fraction: size.fraction,
          onProgress: shown.onProgress,
        }).finally(() => shown.close());
        printLines([
          `cases   ${p.cases} (${p.counts.cases})`,
          `videos  ${p.videos} (${p.model}, ${p.counts.videos})`,
        ]);
        return;
      }
      const p = await buildMiniCompass(resolve(o.out), { onProgress: shown.onProgress }).finally(() =>
        shown.close(),
      );
      printLines([`cases   ${p.cases}`, `videos  ${p.videos} (${p.models.join(', ')})`]);
    });
}
