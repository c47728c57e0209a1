/** `kfbench compass …`: keyframe-conditioned video generation, the keyframe-response half. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { align, loadAlignInputs } from '../compass/align.js';
import {
  type LoadedCase,
  loadCases,
  loadOneCase,
  PROMPT_MODES,
  type PromptMode,
  videoPath,
} from '../compass/cases.js';
import { compassShardRecord, selectCases } from '../compass/merge.js';
import { writeResponseRun } from '../compass/outputs.js';
import { generationPrompt } from '../compass/prompts.js';
import { budgetCheck, evaluateCompass } from '../compass/quality/evaluate.js';
import { type Leaderboard, leaderboard } from '../compass/quality/leaderboard.js';
import { writeEvaluationRun } from '../compass/quality/outputs.js';
import {
  type CallPlan,
  checklistPlan,
  imageTokens,
  segmentPlan,
  videoPlan,
} from '../compass/quality/plan.js';
import { DEFAULT_QUALITY_OPTIONS, type QualityOptions } from '../compass/quality/video.js';
import {
  DEFAULT_RESPONSE_OPTIONS,
  DEFAULT_SCAN_OPTIONS,
  type ResponseOptions,
} from '../compass/response/options.js';
import { scoreResponse } from '../compass/response/report.js';
import { cachedScan, ScanCache } from '../compass/response/scan-cache.js';
import { type MissingPolicy, type ResponseRow, scoreModels } from '../compass/score.js';
import { judgeSegmenter, SEGMENTERS, type SegmenterKind } from '../compass/segment.js';
import { DEFAULT_GRID, sensitivity } from '../compass/sensitivity.js';
import { buildMiniCompass } from '../dev/mini-compass/build.js';
import { createEmbedder } from '../embed/registry.js';
import { PartialError, UsageError } from '../errors.js';
import { judgeIdentity } from '../judge/identity.js';
import { openJudge, resolveJudgeSettings } from '../judge/registry.js';
import { gridFiles } from '../media/grid.js';
import { probe } from '../media/video.js';
import {
  compassTable,
  leaderboardCsv,
  leaderboardHtml,
  leaderboardMarkdown,
  leaderboardText,
  sensitivityLines,
} from '../report/compass.js';
import { textTable } from '../report/table.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { readJsonFile } from '../store/jsonl.js';
import { parseShard, writeShardRecord } from '../store/shards.js';
import { registerCompassExport } from './compass-export.js';
import { onnxFlags, onnxOptions } from './embed.js';
import { withInterrupt } from './interrupt.js';
import { judgeFlags, judgeOptions } from './judge.js';
import { parseNumberFlag, printJson, printLines } from './output.js';
import { progress } from './progress.js';

interface MetricFlags {
  embedder: string;
  threads?: string;
  device?: string;
  gamma?: string;
  holdEps: string;
  psnrLow: string;
  psnrHigh: string;
  ssimLow: string;
  ssimHigh: string;
  fusion: string;
  positionFraction: string;
  persistenceS: string;
  uniqueGapS: string;
  fpsCap: string;
  pixelSize: string;
}

function metricFlags(cmd: Command): Command {
  const d = DEFAULT_RESPONSE_OPTIONS;
  return onnxOptions(cmd)
    .option('--embedder <spec>', 'builtin | onnx:PATH', 'builtin')
    .option('--gamma <g>', "match threshold (default: the embedder's own; builtin 0.76, DINOv3 0.80)")
    .option('--hold-eps <x>', 'a hold = frames within this of the best similarity', String(d.holdEps))
    .option('--psnr-low <db>', 'pixel score: PSNR lower anchor', String(d.psnrLow))
    .option('--psnr-high <db>', 'pixel score: PSNR saturation', String(d.psnrHigh))
    .option('--ssim-low <x>', 'pixel score: SSIM lower anchor', String(d.ssimLow))
    .option('--ssim-high <x>', 'pixel score: SSIM saturation', String(d.ssimHigh))
    .option('--fusion <w>', 'KFS = w·pixel + (1 − w)·cos', String(d.fusion))
    .option(
      '--position-fraction <f>',
      'multi-shot: first/last = this fraction of the shot',
      String(d.positionFraction),
    )
    .option('--persistence-s <s>', 'persistence saturates at this many seconds', String(d.persistence_s))
    .option('--unique-gap-s <s>', 'matched runs closer than this count as one', String(d.uniqueGap_s))
    .option(
      '--fps-cap <r>',
      'sample every frame, at most this many per second',
      String(DEFAULT_SCAN_OPTIONS.fpsCap),
    )
    .option(
      '--pixel-size <px>',
      "PSNR/SSIM on frames scaled to this long side (0 = the video's own)",
      String(DEFAULT_SCAN_OPTIONS.pixelSize),
    );
}

function responseOptions(o: MetricFlags): ResponseOptions {
  const num = (name: string, v: string, ok: (n: number) => boolean = () => true) =>
    parseNumberFlag(name, v, ok);
  const unit = (n: number) => n >= 0 && n <= 1;
  const r: ResponseOptions = {
    gamma: o.gamma === undefined ? undefined : num('--gamma', o.gamma, (n) => n >= -1 && n <= 1),
    holdEps: num('--hold-eps', o.holdEps, (n) => n >= 0),
    psnrLow: num('--psnr-low', o.psnrLow),
    psnrHigh: num('--psnr-high', o.psnrHigh),
    ssimLow: num('--ssim-low', o.ssimLow),
    ssimHigh: num('--ssim-high', o.ssimHigh),
    fusion: num('--fusion', o.fusion, unit),
    positionFraction: num('--position-fraction', o.positionFraction, (n) => n > 0 && n <= 0.5),
    persistence_s: num('--persistence-s', o.persistenceS, (n) => n > 0),
    uniqueGap_s: num('--unique-gap-s', o.uniqueGapS, (n) => n >= 0),
  };
  if (r.psnrHigh <= r.psnrLow) throw new UsageError('--psnr-high must be above --psnr-low');
  if (r.ssimHigh <= r.ssimLow) throw new UsageError('--ssim-high must be above --ssim-low');
  return r;
}

function scanOptions(o: MetricFlags) {
  return {
    fpsCap: parseNumberFlag('--fps-cap', o.fpsCap, (n) => n > 0),
    pixelSize: parseNumberFlag('--pixel-size', o.pixelSize, (n) => Number.isInteger(n) && n >= 0),
  };
}

function parseModes(v: string): PromptMode[] {
  const modes = v.split(',').map((s) => s.trim());
  for (const m of modes)
    if (!(PROMPT_MODES as readonly string[]).includes(m))
      throw new UsageError(`--modes takes ${PROMPT_MODES.join(',')}, got "${m}"`);
  return modes as PromptMode[];
}

interface FolderFlags extends MetricFlags {
  cases: string;
  videos: string;
  model: string[];
  modes: string;
  out: string;
  cache?: string | false;
  missing: string;
  segmenter?: string;
  judge?: string;
  judgeCache?: string;
  jobs: string;
  shard?: string;
  caseIds?: string[];
}

/** `--shard k/n` and `--case-ids` of score and evaluate (see kfbench merge compass). */
function shardFlags(cmd: Command): Command {
  return cmd
    .option('--case-ids <ids...>', 'only these cases (a merge then needs the others from other folders)')
    .option(
      '--shard <k/n>',
      'a deterministic k-th of n shards of the cases (own --out and caches; see kfbench merge)',
    );
}

function segmenterKind(v: string): SegmenterKind {
  if (!(SEGMENTERS as readonly string[]).includes(v))
    throw new UsageError(`--segmenter takes ${SEGMENTERS.join(' or ')}, got "${v}"`);
  return v as SegmenterKind;
}

const SEGMENTER_HELP =
  'what cuts a video into shots: pixel (the shot detector) or judge (the published evaluator: edit boundaries by an MLLM)';

function missingPolicy(v: string): MissingPolicy {
  if (v !== 'zero' && v !== 'skip') throw new UsageError(`--missing takes zero or skip, got "${v}"`);
  return v;
}

const MISSING_HELP =
  'a missing or undecodable video: zero (scores 0 on every metric, counted) or skip (every model only on the videos all have)';

function folderFlags(cmd: Command): Command {
  return metricFlags(
    cmd
      .requiredOption('--cases <file>', 'cases.jsonl')
      .requiredOption('--videos <dir>', 'folder of <model>/<case_id>__<prompt_mode>.mp4')
      .requiredOption('--model <names...>', 'model folders to score')
      .option('--modes <list>', 'prompt modes', PROMPT_MODES.join(','))
      .option('--out <dir>', 'where results go', 'compass-response')
      .option('--missing <policy>', MISSING_HELP, 'zero')
      .option('--segmenter <kind>', SEGMENTER_HELP, 'pixel')
      .option('--judge <spec>', 'the judge, with --segmenter judge')
      .option(
        '--judge-cache <file>',
        'judge cache, with --segmenter judge (default: <out>/judge-cache.sqlite)',
      )
      .option('--cache <file>', 'scan cache (default: <out>/scan-cache.sqlite)')
      .option('--no-cache', 'do not read or write the scan cache')
      .option('--jobs <n>', 'videos scanned at once (each a decoder and the embedder)', '1'),
  );
}

async function runFolder(o: FolderFlags, label: string) {
  missingPolicy(o.missing);
  const kind = segmenterKind(o.segmenter ?? 'pixel');
  if (kind === 'judge' && !o.judge) throw new UsageError('--segmenter judge needs --judge SPEC');
  const response = responseOptions(o);
  const scan = scanOptions(o);
  const allCases = await loadCases(o.cases);
  const shard = o.shard ? parseShard(o.shard) : undefined;
  const cases = selectCases(allCases, { caseIds: o.caseIds, shard });
  const judgeSettings =
    kind === 'judge'
      ? resolveJudgeSettings({
          judge: o.judge,
          cache: o.judgeCache ?? join(resolve(o.out), 'judge-cache.sqlite'),
        })
      : undefined;
  const judge = judgeSettings ? await openJudge(judgeSettings) : undefined;
  const recordOf = async (embedderId: string) =>
    compassShardRecord({
      kind: 'compass score',
      casesFile: o.cases,
      all: selectCases(allCases, { caseIds: o.caseIds }),
      selected: cases,
      shard,
      complete: true,
      settings: {
        videos: resolve(o.videos),
        models: o.model,
        modes: parseModes(o.modes),
        missing: o.missing,
        embedder: embedderId,
        segmenter: kind,
        response: { ...response },
        scan: { ...scan },
        ...(judge && judgeSettings ? { judge: judgeIdentity(judge.judge.name, judgeSettings) } : {}),
      },
    });
  const embedder = await createEmbedder(o.embedder, onnxFlags(o));
  const cache =
    o.cache === false ? undefined : new ScanCache(o.cache ?? join(resolve(o.out), 'scan-cache.sqlite'));
  const bar = phases(label);
  const t0 = Date.now();
  try {
    const run = await scoreModels({
      cases,
      videos: o.videos,
      models: o.model,
      modes: parseModes(o.modes),
      embedder,
      response,
      scan,
      cache,
      ...(judge ? { segment: judgeSegmenter(judge.judge, judge.encoder, probe) } : {}),
      jobs: parseNumberFlag('--jobs', o.jobs, (n) => Number.isInteger(n) && n >= 1),
      onVideo: (done, total, what) => bar.update('scanning', 'videos', done, total, what),
    });
    bar.stop();
    return { run, wall_s: (Date.now() - t0) / 1000, embedder, cache, record: await recordOf(embedder.id) };
  } finally {
    cache?.close();
    await embedder.close();
    await judge?.close();
  }
}

/** One progress display per phase ("<label> · <phase>"), each started when its phase begins. */
function phases(label: string) {
  let current = '';
  let bar: ReturnType<typeof progress> | undefined;
  return {
    update(phase: string, unit: string, done: number, total: number, what: string) {
      if (phase !== current) {
        bar?.stop();
        current = phase;
        bar = progress(unit);
        bar.start(total, `${label} · ${phase}`);
      }
      if (done > 0) bar!.update(done, what);
    },
    stop: () => bar?.stop(),
  };
}

/** `--dry-run`: every call with its frames, images and estimated prompt tokens, then the totals. */
async function dryRunLines(
  cases: readonly LoadedCase[],
  modes: readonly PromptMode[],
  models: readonly string[],
  videos: string,
  quality: QualityOptions,
  runs: number,
  maxSide: number,
  segmenter: SegmenterKind,
): Promise<string[]> {
  const calls: CallPlan[] = [];
  const missing: string[] = [];
  const grouped: CallPlan[] = [];
  const segments: CallPlan[] = [];
  let kfTokens = 0;
  for (const model of models)
    for (const c of cases)
      for (const mode of modes) {
        const file = videoPath(videos, model, c.case_id, mode);
        if (!existsSync(file)) {
          missing.push(file);
          continue;
        }
        const info = await probe(file);
        kfTokens ||= imageTokens(info.width, info.height, maxSide);
        const label = `${model}/${c.case_id}__${mode}`;
        if (segmenter === 'judge')
          segments.push(segmentPlan(c, { label, ...info }, quality.frameWidth, maxSide));
        grouped.push(
          ...videoPlan(c, mode, { label: `${model}/${c.case_id}__${mode}`, ...info }, quality, maxSide),
        );
      }
  for (const c of cases) for (const mode of modes) calls.push(...checklistPlan(c, mode, quality, kfTokens));
  calls.push(...segments);
  for (let r = 0; r < runs; r++)
    calls.push(...grouped.map((g) => (runs > 1 ? { ...g, what: `${g.what} (run ${r + 1})` } : g)));
  const sum = (f: (c: CallPlan) => number) => calls.reduce((s, c) => s + f(c), 0);
  return [
    ...textTable(
      ['call', 'kind', 'frames', 'images', '≈ prompt tokens'],
      calls.map((c) => [c.what, c.kind, String(c.frames), String(c.images), String(c.tokens)]),
    ),
    ...missing.map((m) => `missing (no calls): ${m}`),
    `total: ${calls.length} calls (${calls.length - grouped.length * runs - segments.length} checklist, ${segments.length} segment, ${grouped.length * runs} grouped), ${sum((c) => c.frames)} frames, ${sum((c) => c.images)} images, ≈ ${sum((c) => c.tokens)} prompt tokens; frames at ${quality.fps} fps${quality.budget === undefined ? ' over the whole video' : `, at most ${quality.budget} per video`}; nothing was asked`,
  ];
}

function partial(run: { missing: string[]; failed: { video: string; error: string }[] }): void {
  for (const m of run.missing) process.stderr.write(`missing: ${m}\n`);
  for (const f of run.failed) process.stderr.write(`failed: ${f.error}\n`);
  const bad = [...run.missing, ...run.failed.map((f) => f.video)];
  if (bad.length)
    throw new PartialError(
      `${run.missing.length} video(s) missing and ${run.failed.length} failed; the others were scored`,
      bad,
    );
}

export function registerCompass(program: Command): void {
  const compass = program.command('compass').description('Compass: keyframe-conditioned video generation');

  compass
    .command('validate')
    .description('check a cases.jsonl line by line (shape, counts, targets, shots, images, ids)')
    .requiredOption('--cases <file>', 'cases.jsonl')
    .option('--json', 'print JSON')
    .action(async (o: { cases: string; json?: boolean }) => {
      const cases = await loadCases(o.cases);
      const count = (f: (c: (typeof cases)[number]) => string) =>
        Object.fromEntries(
          [...new Set(cases.map(f))].sort().map((k) => [k, cases.filter((c) => f(c) === k).length]),
        );
      const r = {
        cases: cases.length,
        keyframes: cases.reduce((s, c) => s + c.keyframes.length, 0),
        by_structure: count((c) => c.structure),
        by_keyframes: count((c) => String(c.keyframes.length)),
        by_domain: count((c) => c.domain),
      };
      if (o.json) printJson(r);
      else
        printLines([
          `${r.cases} cases, ${r.keyframes} keyframes: ${Object.entries(r.by_structure)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ')}; keyframe counts ${Object.entries(r.by_keyframes)
            .map(([k, v]) => `${k}×${v}`)
            .join(', ')}`,
        ]);
    });

  metricFlags(
    compass
      .command('response')
      .description('the six keyframe-response metrics of one video for one case')
      .option('--case <file>', 'one case as a JSON file')
      .option('--cases <file>', 'cases.jsonl')
      .option('--case-id <id>', 'the case, with --cases')
      .requiredOption('--video <file>', 'the generated video')
      .option('--json', 'print JSON'),
  ).action(
    async (
      o: MetricFlags & { case?: string; cases?: string; caseId?: string; video: string; json?: boolean },
    ) => {
      if (!o.case && !o.cases) throw new UsageError('give --case FILE, or --cases FILE with --case-id ID');
      const response = responseOptions(o);
      const scanOpts = scanOptions(o);
      const c = await loadOneCase({ caseFile: o.case, casesFile: o.cases, caseId: o.caseId });
      const embedder = await createEmbedder(o.embedder, onnxFlags(o));
      try {
        const { scan } = await cachedScan(
          { video: o.video, keyframes: c.keyframes },
          embedder,
          scanOpts,
          {},
          undefined,
        );
        const r = scoreResponse(c, scan, embedder, response);
        if (o.json) printJson({ ...r, segmenter: 'pixel' });
        else
          printLines([
            `case ${r.case_id}, embedder ${r.embedder}, γ = ${r.gamma}, ${r.shots.length} shot${r.shots.length === 1 ? '' : 's'} (segmenter pixel)`,
            ...Object.entries(r.metrics).map(([k, v]) => `${k.padEnd(13)} ${v.toFixed(3)}`),
            `keyframe fidelity ${r.groups.keyframe_fidelity.toFixed(3)}, temporal organization ${r.groups.temporal_organization.toFixed(3)}`,
            ...r.keyframes.map(
              (k) =>
                `${k.kf_id}: ${k.matched ? `at ${k.t_best_s?.toFixed(3)} s (shot ${k.shot})` : 'not found'}, cos ${k.cos.toFixed(3)} → ${Object.values(
                  k.scores,
                )
                  .map((v) => v.toFixed(2))
                  .join(' ')}`,
            ),
          ]);
      } finally {
        await embedder.close();
      }
    },
  );

  shardFlags(
    folderFlags(
      compass
        .command('score')
        .description('keyframe response of whole model folders: per-video JSONL and a summary by model'),
    ),
  ).action(async (o: FolderFlags) => {
    const out = resolve(o.out);
    const { run, wall_s, embedder, record } = await runFolder(o, 'compass score');
    const summary = await writeResponseRun(out, run, o.model, {
      embedder: embedder.id,
      wall_s,
      missing: missingPolicy(o.missing),
    });
    await writeShardRecord(out, record);
    printLines([
      compassTable(summary),
      `${run.scanned} videos scanned, ${run.cached} from the scan cache; results in ${out}`,
    ]);
    partial(run);
  });

  folderFlags(
    compass
      .command('sensitivity')
      .description(
        'vary the pixel-score constants; largest change of mean KFS, lowest Spearman ρ of the ranking',
      )
      .option('--psnr-lows <list>', 'PSNR lower anchors (dB)', DEFAULT_GRID.psnrLow.join(','))
      .option('--ssim-lows <list>', 'SSIM lower anchors', DEFAULT_GRID.ssimLow.join(','))
      .option('--fusions <list>', 'fusion weights', DEFAULT_GRID.fusion.join(','))
      .option('--json', 'print JSON'),
  ).action(
    async (o: FolderFlags & { psnrLows: string; ssimLows: string; fusions: string; json?: boolean }) => {
      const list = (name: string, v: string) => v.split(',').map((x) => parseNumberFlag(name, x));
      const grid = {
        psnrLow: list('--psnr-lows', o.psnrLows),
        ssimLow: list('--ssim-lows', o.ssimLows),
        fusion: list('--fusions', o.fusions),
      };
      const { run } = await runFolder(o, 'compass sensitivity');
      const r = sensitivity(
        run.rows.filter((x) => x.status === 'scored') as ResponseRow[],
        grid,
        responseOptions(o),
      );
      await writeFileAtomic(join(resolve(o.out), 'sensitivity.json'), `${JSON.stringify(r, null, 2)}\n`);
      if (o.json) printJson(r);
      else printLines(sensitivityLines(r));
      partial(run);
    },
  );

  compass
    .command('grid')
    .description("a storyboard grid of a case's keyframes (for generators that take one image)")
    .option('--case <file>', 'one case as a JSON file')
    .option('--cases <file>', 'cases.jsonl')
    .option('--case-id <id>', 'the case, with --cases')
    .requiredOption('--out <file>', 'grid image (.jpg or .png)')
    .option('--cell-width <px>', 'cell width', '320')
    .option('--no-labels', 'no index labels')
    .option('--json', 'print JSON')
    .action(
      async (o: {
        case?: string;
        cases?: string;
        caseId?: string;
        out: string;
        cellWidth: string;
        labels: boolean;
        json?: boolean;
      }) => {
        if (!o.case && !o.cases) throw new UsageError('give --case FILE, or --cases FILE with --case-id ID');
        const c = await loadOneCase({ caseFile: o.case, casesFile: o.cases, caseId: o.caseId });
        const cellWidth = parseNumberFlag('--cell-width', o.cellWidth, (n) => Number.isInteger(n) && n >= 16);
        const size = await gridFiles(
          c.keyframes.map((k) => k.image),
          o.out,
          { labels: o.labels, cellWidth },
        );
        const r = { case_id: c.case_id, keyframes: c.keyframes.length, out: o.out, ...size };
        if (o.json) printJson(r);
        else printLines([`${o.out}: ${r.keyframes} keyframes, ${size.width}×${size.height}`]);
      },
    );

  compass
    .command('prompts')
    .description('render the generation prompt templates for a case (minimal / segment-specific)')
    .option('--case <file>', 'one case as a JSON file')
    .option('--cases <file>', 'cases.jsonl')
    .option('--case-id <id>', 'the case, with --cases')
    .option('--modes <list>', 'prompt modes', PROMPT_MODES.join(','))
    .option('--json', 'print JSON')
    .action(async (o: { case?: string; cases?: string; caseId?: string; modes: string; json?: boolean }) => {
      if (!o.case && !o.cases) throw new UsageError('give --case FILE, or --cases FILE with --case-id ID');
      const c = await loadOneCase({ caseFile: o.case, casesFile: o.cases, caseId: o.caseId });
      const r = parseModes(o.modes).map((mode) => ({
        case_id: c.case_id,
        mode,
        ...generationPrompt(c, mode),
      }));
      if (o.json) printJson(r);
      else
        printLines(
          r.flatMap((p) => [`== ${p.case_id} · ${p.mode} (${p.template} ${p.version})`, p.text, '']),
        );
    });

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
        printLines(
          await dryRunLines(cases, modes, o.model, o.videos, quality, runs, settings.maxSide, segmenter),
        );
        return;
      }
      await withInterrupt(async (signal) => {
        const judge = await openJudge(settings, { signal });
        const embedder = await createEmbedder(o.embedder, onnxFlags(o));
        const cache = new ScanCache(join(out, 'scan-cache.sqlite'));
        const bar = phases('compass evaluate');
        const t0 = Date.now();
        try {
          const r = await evaluateCompass({
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
            onPhase: (phase, done, total, what) =>
              bar.update(phase, phase === 'scanning' ? 'videos' : 'questions', done, total, what),
            onVideo: (done, total, what) => bar.update('judging', 'videos', done, total, what),
          });
          bar.stop();
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
      const lb = await readJsonFile(
        join(o.eval, 'leaderboard.json'),
        z.looseObject({ models: z.array(z.unknown()) }),
      );
      const board = lb as unknown as Leaderboard;
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

  registerCompassExport(compass);

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
            `== ${d}: agreement ${f(a.rate)}${a.ci ? ` (95 % CI ${f(a.ci[0])}–${f(a.ci[1])})` : ''} over ${a.n} decisive items (coverage ${f(a.coverage)}${a.unscored ? `; ${a.unscored} without an automatic score, left out` : ''}); Spearman ρ ${f(sp.rho)}${p !== undefined ? ` (p ${sp.p_exact !== undefined ? 'exact' : 'asymptotic'} ${f(p)})` : ''}${sp.ci ? `, 95 % CI ${f(sp.ci[0])}–${f(sp.ci[1])}` : ''}`,
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
      const p = await buildMiniCompass(resolve(o.out), {
        onVideo: (model, id) => process.stderr.write(`rendering ${model}/${id}\n`),
      });
      printLines([`cases   ${p.cases}`, `videos  ${p.videos} (${p.models.join(', ')})`]);
    });
}
