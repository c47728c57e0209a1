/** `kfbench compass validate | response | score | sensitivity | grid | prompts`: cases and keyframe response. */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { PROMPT_MODES, PUBLISHED_KEYFRAME_COUNTS, validateCasesFile } from '../compass/cases.js';
import { casePrompts } from '../compass/prompts.js';
import type { CompassRunInput } from '../compass/run.js';
import { DEFAULT_GRID } from '../compass/sensitivity.js';
import { storyboardGrid } from '../compass/storyboard.js';
import { PartialError, UsageError } from '../errors.js';
import { resolveJudgeSettings } from '../judge/registry.js';
import type { OnProgress } from '../progress.js';
import { compassTable, sensitivityLines } from '../report/compass.js';
import { responseLines } from '../report/compass-response.js';
import { scoreVideoResponse } from '../runs/compass-score.js';
import {
  type MetricFlags,
  maxDuration,
  metricFlags,
  responseOptions,
  scanOptions,
} from './compass-metric-flags.js';
import {
  type FolderFlags,
  folderFlagSpecs,
  folderFlags,
  loadCaseFlags,
  type OneCaseFlags,
  oneCaseOptions,
  parseModes,
  partial,
  runInput,
  SHARD_FLAG_SPECS,
} from './compass-options.js';
import { onnxFlags } from './embed.js';
import { addFlags, type FlagValues, flagSpecs } from './flags.js';
import type { CliImpls } from './impls.js';
import { withInterruptShown } from './interrupt.js';
import { parseNumberFlag, printJson, printLines, printResult } from './output.js';

/**
 * A folder run's input from its flags: the judge segmenter's settings resolved (its cache in --out
 * unless given), Ctrl-C as the signal and the progress drawn on stderr.
 */
function folderInput(o: FolderFlags, signal: AbortSignal, onProgress: OnProgress): CompassRunInput {
  const input = runInput(o, 'pixel');
  if (input.segmenter === 'judge' && !o.judge) throw new UsageError('--segmenter judge needs --judge SPEC');
  const judge =
    input.segmenter === 'judge'
      ? resolveJudgeSettings({
          judge: o.judge,
          cache: o.judgeCache ?? join(resolve(o.out), 'judge-cache.sqlite'),
        })
      : undefined;
  return { ...input, judge, signal, onProgress };
}

/** `kfbench compass validate`. */
function registerValidate(compass: Command): void {
  compass
    .command('validate')
    .description(
      'check a cases.jsonl line by line (shape, counts, targets, shots, ids) and decode every keyframe image',
    )
    .requiredOption('--cases <file>', 'cases.jsonl')
    .option('--json', 'print JSON')
    .action(async (o: { cases: string; json?: boolean }) => {
      const stats = await validateCasesFile(o.cases);
      // the published set's four densities are no rule for your own cases: accepted, warned about
      const outside = stats.outside_published_counts;
      if (outside.length)
        process.stderr.write(
          `warning: ${outside.length} case(s) with a keyframe count outside the published set's ${PUBLISHED_KEYFRAME_COUNTS.join(', ')} (accepted; their leaderboard rows are grouped by their own count): ${outside
            .slice(0, 10)
            .map((c) => `${c.case_id} (${c.keyframes})`)
            .join(', ')}${outside.length > 10 ? ', …' : ''}\n`,
        );
      printResult(o.json, stats, (r) => [
        `${r.cases} cases, ${r.keyframes} keyframes: ${Object.entries(r.by_structure)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}; keyframe counts ${Object.entries(r.by_keyframes)
          .map(([k, v]) => `${k}×${v}`)
          .join(', ')}`,
      ]);
    });
}

/** `kfbench compass response`. */
function registerResponse(compass: Command): void {
  metricFlags(
    oneCaseOptions(
      compass.command('response').description('the six keyframe-response metrics of one video for one case'),
    )
      .requiredOption('--video <file>', 'the generated video')
      .option('--json', 'print JSON'),
  ).action(async (o: MetricFlags & OneCaseFlags & { video: string; json?: boolean }) => {
    const response = responseOptions(o);
    const scan = scanOptions(o);
    const maxDuration_s = maxDuration(o);
    const c = await loadCaseFlags(o);
    const r = await scoreVideoResponse({
      case: c,
      video: o.video,
      embedder: o.embedder,
      embedderOptions: onnxFlags(o),
      response,
      scan,
      maxDuration_s,
    });
    if (o.json) printJson({ ...r, segmenter: 'pixel' });
    else printLines(responseLines(r, new Map(c.keyframes.map((k) => [k.kf_id, k.t_target_s])), 'pixel'));
  });
}

/** `compass score`'s flags and their help, declared once: the parsed options' type is inferred from them. */
function scoreFlagSpecs() {
  return flagSpecs({
    maxCalls: {
      flags: '--max-calls <n>',
      description: 'with --segmenter judge: make at most this many judge calls (exit 5; run again to resume)',
    },
    ...folderFlagSpecs(),
    ...SHARD_FLAG_SPECS,
  });
}

/** `kfbench compass score`. */
function registerScore(compass: Command, impls: CliImpls): void {
  const cmd = compass
    .command('score')
    .description('keyframe response of whole model folders: per-video JSONL and a summary by model');
  addFlags(cmd, scoreFlagSpecs()).action(async (o: FlagValues<ReturnType<typeof scoreFlagSpecs>>) => {
    const out = resolve(o.out);
    const maxCalls =
      o.maxCalls === undefined
        ? undefined
        : parseNumberFlag('--max-calls', o.maxCalls, (n) => Number.isInteger(n) && n >= 0);
    // Ctrl-C: no new scan or judge call starts, calls on the wire are cancelled, exit 130
    const { run, summary } = await withInterruptShown((signal, onProgress) =>
      impls.scoreCompass({ ...folderInput(o, signal, onProgress), out, maxCalls }),
    );
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
}

/** `kfbench compass sensitivity`. */
function registerSensitivity(compass: Command, impls: CliImpls): void {
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
      const { run, result: r } = await withInterruptShown((signal, onProgress) =>
        impls.compassSensitivity({ ...folderInput(o, signal, onProgress), out: o.out, grid }),
      );
      if (o.json) printJson(r);
      else printLines(sensitivityLines(r));
      partial(run);
    },
  );
}

/** `kfbench compass grid`. */
function registerGrid(compass: Command): void {
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
      const r = await storyboardGrid(c, o.out, { labels: o.labels, cellWidth });
      printResult(o.json, r, () => [`${o.out}: ${r.keyframes} keyframes, ${r.width}×${r.height}`]);
    });
}

/** `kfbench compass prompts`. */
function registerPrompts(compass: Command): void {
  oneCaseOptions(
    compass
      .command('prompts')
      .description('render the generation prompt templates for a case (minimal / segment-specific)'),
  )
    .option('--modes <list>', 'prompt modes', PROMPT_MODES.join(','))
    .option('--json', 'print JSON')
    .action(async (o: OneCaseFlags & { modes: string; json?: boolean }) => {
      const c = await loadCaseFlags(o);
      printResult(o.json, casePrompts(c, parseModes(o.modes)), (r) =>
        r.flatMap((p) => [`== ${p.case_id} · ${p.mode} (${p.template} ${p.version})`, p.text, '']),
      );
    });
}

export function registerCompassResponse(compass: Command, impls: CliImpls): void {
  registerValidate(compass);
  registerResponse(compass);
  registerScore(compass, impls);
  registerSensitivity(compass, impls);
  registerGrid(compass);
  registerPrompts(compass);
}
