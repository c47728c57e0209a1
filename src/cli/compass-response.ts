/** `kfbench compass validate | response | score | sensitivity | grid | prompts`: cases and keyframe response. */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { caseStats, checkKeyframeImages, loadCases, PROMPT_MODES } from '../compass/cases.js';
import { compassShardRecord, selectCases } from '../compass/merge.js';
import { writeResponseRun } from '../compass/outputs.js';
import { generationPrompt } from '../compass/prompts.js';
import { evaluationCacheIn } from '../compass/quality/eval-cache.js';
import { scoreResponse } from '../compass/response/report.js';
import { cachedScan, ScanCache } from '../compass/response/scan-cache.js';
import { checkVideosFolder } from '../compass/score.js';
import { judgeSegmenter } from '../compass/segment.js';
import { DEFAULT_GRID, sensitivity } from '../compass/sensitivity.js';
import { createEmbedder } from '../embed/registry.js';
import { PartialError, UsageError } from '../errors.js';
import { judgeIdentity } from '../judge/identity.js';
import { openJudge, resolveJudgeSettings } from '../judge/registry.js';
import { checkMaxDuration } from '../media/duration.js';
import { gridFiles } from '../media/grid.js';
import { probe } from '../media/probe.js';
import { compassTable, sensitivityLines } from '../report/compass.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { writeOutputFolder } from '../store/out-folder.js';
import { parseShard, writeOutputsRecord, writeShardRecord } from '../store/shards.js';
import {
  type FolderFlags,
  folderFlags,
  loadCaseFlags,
  type MetricFlags,
  maxDuration,
  metricFlags,
  missingPolicy,
  type OneCaseFlags,
  oneCaseOptions,
  parseJobs,
  parseModes,
  partial,
  responseOptions,
  scanCacheFile,
  scanOptions,
  scanSettings,
  segmenterKind,
  shardFlags,
} from './compass-options.js';
import { onnxFlags } from './embed.js';
import type { CliImpls } from './impls.js';
import { withInterrupt } from './interrupt.js';
import { parseNumberFlag, printJson, printLines } from './output.js';
import { renderProgress } from './progress.js';

async function runFolder(o: FolderFlags, impls: CliImpls, maxCalls?: number) {
  missingPolicy(o.missing);
  const kind = segmenterKind(o.segmenter ?? 'pixel');
  if (kind === 'judge' && !o.judge) throw new UsageError('--segmenter judge needs --judge SPEC');
  const response = responseOptions(o);
  const scan = scanOptions(o);
  const maxDurationS = maxDuration(o);
  const allCases = await loadCases(o.cases);
  const shard = o.shard ? parseShard(o.shard) : undefined;
  const cases = selectCases(allCases, { caseIds: o.caseIds, shard });
  // a wrong --videos is bad input before any output (or cache) is written
  checkVideosFolder(o.videos, o.model, cases, parseModes(o.modes));
  const judgeSettings =
    kind === 'judge'
      ? resolveJudgeSettings({
          judge: o.judge,
          cache: o.judgeCache ?? join(resolve(o.out), 'judge-cache.sqlite'),
        })
      : undefined;
  // Ctrl-C: no new scan or judge call starts, calls on the wire are cancelled, exit 130
  return withInterrupt(async (signal) => {
    const judge = judgeSettings ? await openJudge(judgeSettings, { signal }) : undefined;
    const recordOf = async (embedderId: string, skipped: number) =>
      compassShardRecord({
        kind: 'compass score',
        casesFile: o.cases,
        all: selectCases(allCases, { caseIds: o.caseIds }),
        selected: cases,
        shard,
        complete: skipped === 0,
        settings: {
          videos: resolve(o.videos),
          models: o.model,
          modes: parseModes(o.modes),
          missing: o.missing,
          embedder: embedderId,
          segmenter: kind,
          response: { ...response },
          scan: scanSettings(scan),
          ...(judge && judgeSettings ? { judge: judgeIdentity(judge.judge.name, judgeSettings) } : {}),
        },
      });
    let embedder: Awaited<ReturnType<typeof createEmbedder>> | undefined;
    let cache: ScanCache | undefined;
    const shown = renderProgress();
    try {
      embedder = await createEmbedder(o.embedder, onnxFlags(o));
      const scanFile = scanCacheFile(o);
      cache = scanFile === undefined ? undefined : new ScanCache(scanFile);
      const t0 = Date.now();
      const run = await impls.scoreModels({
        cases,
        videos: o.videos,
        models: o.model,
        modes: parseModes(o.modes),
        embedder,
        response,
        scan,
        cache,
        ...(judge
          ? { segment: judgeSegmenter(judge.judge, judge.encoder, probe, evaluationCacheIn(judge.cache)) }
          : {}),
        jobs: parseJobs(o.jobs),
        maxDuration: maxDurationS,
        ...(maxCalls !== undefined ? { maxCalls } : {}),
        signal,
        onProgress: shown.onProgress,
      });
      shown.close();
      return {
        run,
        wall_s: (Date.now() - t0) / 1000,
        embedder,
        cache,
        record: await recordOf(embedder.id, run.skipped.length),
      };
    } finally {
      shown.close();
      cache?.close();
      await embedder?.close();
      await judge?.close();
    }
  });
}

export function registerCompassResponse(compass: Command, impls: CliImpls): void {
  compass
    .command('validate')
    .description(
      'check a cases.jsonl line by line (shape, counts, targets, shots, ids) and decode every keyframe image',
    )
    .requiredOption('--cases <file>', 'cases.jsonl')
    .option('--json', 'print JSON')
    .action(async (o: { cases: string; json?: boolean }) => {
      const cases = await loadCases(o.cases);
      await checkKeyframeImages(cases);
      const r = caseStats(cases);
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
    oneCaseOptions(
      compass.command('response').description('the six keyframe-response metrics of one video for one case'),
    )
      .requiredOption('--video <file>', 'the generated video')
      .option('--json', 'print JSON'),
  ).action(async (o: MetricFlags & OneCaseFlags & { video: string; json?: boolean }) => {
    const response = responseOptions(o);
    const scanOpts = scanOptions(o);
    const maxDurationS = maxDuration(o);
    const c = await loadCaseFlags(o);
    // a video past --max-duration is refused before anything decodes it (or an embedder loads)
    await checkMaxDuration(o.video, maxDurationS);
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
  });

  shardFlags(
    folderFlags(
      compass
        .command('score')
        .description('keyframe response of whole model folders: per-video JSONL and a summary by model')
        .option(
          '--max-calls <n>',
          'with --segmenter judge: make at most this many judge calls (exit 5; run again to resume)',
        ),
    ),
  ).action(async (o: FolderFlags & { maxCalls?: string }) => {
    const out = resolve(o.out);
    const maxCalls =
      o.maxCalls === undefined
        ? undefined
        : parseNumberFlag('--max-calls', o.maxCalls, (n) => Number.isInteger(n) && n >= 0);
    const { run, wall_s, embedder, record } = await runFolder(o, impls, maxCalls);
    // written beside --out and moved into place: a failure leaves --out as it was
    const summary = await writeOutputFolder(out, async (stage) => {
      const sum = await writeResponseRun(stage, run, o.model, {
        embedder: embedder.id,
        wall_s,
        missing: missingPolicy(o.missing),
      });
      await writeShardRecord(stage, record);
      await writeOutputsRecord(stage, 'case_id');
      return sum;
    });
    printLines([
      compassTable(summary),
      `${run.scanned} videos scanned, ${run.cached} from the scan cache; results in ${out}`,
    ]);
    partial(run);
    if (run.skipped.length)
      throw new PartialError(
        `${run.skipped.length} video(s) not segmented: the call budget ran out (run again to resume)`,
        run.skipped,
      );
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
      const { run } = await runFolder(o, impls);
      const r = sensitivity(
        run.rows.filter((x) => x.status === 'scored'),
        grid,
        responseOptions(o),
      );
      await writeFileAtomic(join(resolve(o.out), 'sensitivity.json'), `${JSON.stringify(r, null, 2)}\n`);
      if (o.json) printJson(r);
      else printLines(sensitivityLines(r));
      partial(run);
    },
  );

  oneCaseOptions(
    compass
      .command('grid')
      .description("a storyboard grid of a case's keyframes (for generators that take one image)"),
  )
    .requiredOption('--out <file>', 'grid image (.jpg or .png)')
    .option('--cell-width <px>', 'cell width', '320')
    .option('--no-labels', 'no index labels')
    .option('--json', 'print JSON')
    .action(async (o: OneCaseFlags & { out: string; cellWidth: string; labels: boolean; json?: boolean }) => {
      const c = await loadCaseFlags(o);
      const cellWidth = parseNumberFlag('--cell-width', o.cellWidth, (n) => Number.isInteger(n) && n >= 16);
      const size = await gridFiles(
        c.keyframes.map((k) => k.image),
        o.out,
        { labels: o.labels, cellWidth },
      );
      const r = { case_id: c.case_id, keyframes: c.keyframes.length, out: o.out, ...size };
      if (o.json) printJson(r);
      else printLines([`${o.out}: ${r.keyframes} keyframes, ${size.width}×${size.height}`]);
    });

  oneCaseOptions(
    compass
      .command('prompts')
      .description('render the generation prompt templates for a case (minimal / segment-specific)'),
  )
    .option('--modes <list>', 'prompt modes', PROMPT_MODES.join(','))
    .option('--json', 'print JSON')
    .action(async (o: OneCaseFlags & { modes: string; json?: boolean }) => {
      const c = await loadCaseFlags(o);
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
}
