/** `kfbench compass evaluate | report | align | mini`: both axes, the leaderboard, human agreement. */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { align, loadAlignInputs } from '../compass/align.js';
import { loadCases, PROMPT_MODES } from '../compass/cases.js';
import { compassShardRecord, selectCases } from '../compass/merge.js';
import { budgetCheck } from '../compass/quality/evaluate.js';
import { leaderboard } from '../compass/quality/leaderboard.js';
import { writeEvaluationRun } from '../compass/quality/outputs.js';
import { type EvaluationPlan, planEvaluation } from '../compass/quality/plan.js';
import { DEFAULT_QUALITY_OPTIONS, type QualityOptions } from '../compass/quality/video.js';
import { ScanCache } from '../compass/response/scan-cache.js';
import { Leaderboard } from '../compass/results.js';
import { judgeSegmenter } from '../compass/segment.js';
import { buildMiniCompass } from '../dev/mini-compass/build.js';
import { createEmbedder } from '../embed/registry.js';
import { UsageError } from '../errors.js';
import { judgeIdentity } from '../judge/identity.js';
import { openJudge, resolveJudgeSettings } from '../judge/registry.js';
import { probe } from '../media/video.js';
import { leaderboardCsv, leaderboardHtml, leaderboardMarkdown, leaderboardText } from '../report/compass.js';
import { textTable } from '../report/table.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { readJsonFile } from '../store/jsonl.js';
import { parseShard, writeShardRecord } from '../store/shards.js';
import {
  type MetricFlags,
  MISSING_HELP,
  metricFlags,
  missingPolicy,
  parseModes,
  partial,
  responseOptions,
  SEGMENTER_HELP,
  scanOptions,
  segmenterKind,
  shardFlags,
} from './compass-options.js';
import { onnxFlags } from './embed.js';
import type { CliImpls } from './impls.js';
import { withInterrupt } from './interrupt.js';
import { judgeFlags, judgeOptions } from './judge.js';
import { parseNumberFlag, printJson, printLines } from './output.js';
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
        .option('--dry-run', 'count the judge calls needed and cached, spend none'),
    ),
  );
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
          dryRun?: boolean;
          shard?: string;
          caseIds?: string[];
        },
    ) => {
      const out = resolve(o.out);
      const int = (name: string, v: string, min: number) =>
        parseNumberFlag(name, v, (n) => Number.isInteger(n) && n >= min);
      const runs = int('--runs', o.runs, 1);
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
      const modes = parseModes(o.modes);
      const allCases = await loadCases(o.cases);
      const shard = o.shard ? parseShard(o.shard) : undefined;
      const cases = selectCases(allCases, { caseIds: o.caseIds, shard });
      const flags = judgeFlags(o);
      const settings = resolveJudgeSettings({
        ...flags,
        cache: flags.cache ?? join(out, 'judge-cache.sqlite'),
        maxTokens: int('--max-tokens', o.maxTokens, 16),
      });
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
        printLines(dryRunLines(plan, quality));
        return;
      }
      await withInterrupt(async (signal) => {
        const judge = await openJudge(settings, { signal });
        const embedder = await createEmbedder(o.embedder, onnxFlags(o));
        const cache = new ScanCache(join(out, 'scan-cache.sqlite'));
        const shown = renderProgress();
        const t0 = Date.now();
        try {
          const r = await impls.evaluateCompass({
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
            runs,
            concurrency: settings.concurrency,
            signal,
            ...(segmenter === 'judge' ? { segment: judgeSegmenter(judge.judge, judge.encoder, probe) } : {}),
            ...(o.maxCalls ? { maxCalls: int('--max-calls', o.maxCalls, 0) } : {}),
            onProgress: shown.onProgress,
          });
          shown.close();
          const lb = leaderboard(
            r.videos,
            o.model,
            { judge: judge.judge.name, embedder: embedder.id, runs, segmenter },
            missing,
          );
          await writeEvaluationRun(out, r, lb, o.model, {
            wall_s: (Date.now() - t0) / 1000,
            judge: judge.judge.stats,
          });
          await writeShardRecord(
            out,
            await compassShardRecord({
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
                scan: { ...scan },
                quality: { ...quality },
                judge: judgeIdentity(judge.judge.name, settings),
              },
            }),
          );
          const s = judge.judge.stats;
          printLines([
            leaderboardText({ ...lb, by: {} as typeof lb.by }),
            `judge calls ${s.calls}, from the cache ${s.cached}, unresolved ${s.unresolved}; results in ${out}`,
          ]);
          partial(r.response);
          budgetCheck(r);
        } finally {
          shown.close();
          cache.close();
          await embedder.close();
          await judge.close();
        }
      });
    },
  );

  compass
    .command('report')
    .description('the Compass leaderboard of an evaluate folder: text, JSON, CSV, Markdown or HTML')
    .requiredOption('--eval <dir>', 'a compass evaluate --out folder')
    .option('--format <f>', 'text | json | csv | md | html', 'text')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (o: { eval: string; format: string; out?: string }) => {
      const board = await readJsonFile(join(o.eval, 'leaderboard.json'), Leaderboard);
      const render: Record<string, (l: Leaderboard) => string> = {
        text: (l) => `${leaderboardText(l)}\n`,
        json: (l) => `${JSON.stringify(l, null, 2)}\n`,
        csv: leaderboardCsv,
        md: leaderboardMarkdown,
        html: leaderboardHtml,
      };
      const f = render[o.format];
      if (!f) throw new UsageError(`--format takes text, json, csv, md or html, got "${o.format}"`);
      const text = f(board);
      if (o.out) await writeFileAtomic(o.out, text);
      else process.stdout.write(text);
    });

  compass
    .command('align')
    .description('human pairwise judgments against automatic scores: win rates, agreement, Spearman, α')
    .requiredOption(
      '--judgments <file>',
      'JSONL {case_id, model_a, model_b, dimension, annotator, choice: A|B|Tie}',
    )
    .requiredOption('--scores <file>', 'JSONL {case_id, model, dimension, score}')
    .option('--resamples <n>', 'case-clustered bootstrap resamples', '10000')
    .option('--seed <s>', 'bootstrap seed', '0')
    .option('--json', 'print JSON')
    .action(
      async (o: { judgments: string; scores: string; resamples: string; seed: string; json?: boolean }) => {
        const B = parseNumberFlag('--resamples', o.resamples, (n) => Number.isInteger(n) && n >= 100);
        const { votes, scores } = await loadAlignInputs(o.judgments, o.scores);
        const r = align(votes, scores, { B, seed: o.seed });
        if (o.json) return printJson(r);
        const f = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));
        const lines: string[] = [];
        for (const d of r.dimensions) {
          const a = r.agreement[d]!;
          const sp = r.spearman[d]!;
          const p = sp.p_exact ?? sp.p_asymptotic;
          lines.push(
            `== ${d}: agreement ${f(a.rate)}${a.ci ? ` (95 % CI ${f(a.ci[0])}–${f(a.ci[1])})` : ''} over ${a.n} decisive items (coverage ${f(a.coverage)}); Spearman ρ ${f(sp.rho)}${p !== undefined ? ` (p ${sp.p_exact !== undefined ? 'exact' : 'asymptotic'} ${f(p)})` : ''}${sp.ci ? `, 95 % CI ${f(sp.ci[0])}–${f(sp.ci[1])}` : ''}`,
            ...textTable(
              ['model', 'human win rate', '95 % CI'],
              Object.entries(r.win_rates[d]!).map(([m, w]) => [
                m,
                f(w),
                `${f(r.win_rates_ci[d]![m]![0])}–${f(r.win_rates_ci[d]![m]![1])}`,
              ]),
            ),
          );
        }
        const sum = r.alpha_summary;
        lines.push(
          '',
          'overall human score (mean of the dimension-level win rates):',
          ...Object.entries(r.overall_human).map(([m, v]) => `  ${m}: ${f(v)}`),
          '',
          `Krippendorff's α (nominal) across ${sum?.pairs ?? 0} model pairs: ${sum ? `mean ${f(sum.mean)}, min ${f(sum.min)}, max ${f(sum.max)}` : '—'}; per pair:`,
          ...Object.entries(r.alpha).map(([k, v]) => `  ${k}: ${f(v)}`),
        );
        printLines(lines);
      },
    );

  compass
    .command('mini')
    .description('build the mini Compass set: 8 cases, 7 fault "models", both prompt modes')
    .requiredOption('--out <dir>', 'where to build it')
    .action(async (o: { out: string }) => {
      const shown = renderProgress();
      const p = await buildMiniCompass(resolve(o.out), { onProgress: shown.onProgress }).finally(() =>
        shown.close(),
      );
      printLines([`cases   ${p.cases}`, `videos  ${p.videos} (${p.models.join(', ')})`]);
    });
}
