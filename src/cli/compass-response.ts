/** `kfbench compass validate | response | score | sensitivity | grid | prompts`: cases and keyframe response. */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { PROMPT_MODES, PUBLISHED_KEYFRAME_COUNTS, validateCasesFile } from '../compass/cases/cases.js';
import { casePrompts } from '../compass/cases/prompts.js';
import { storyboardGrid } from '../compass/cases/storyboard.js';
import { DEFAULT_GRID } from '../compass/response/sensitivity.js';
import type { CompassRunInput } from '../compass/run/run.js';
import { defined } from '../defined.js';
import { PartialError, UsageError } from '../errors.js';
import { resolveJudgeSettings } from '../judge/precedence.js';
import type { OnProgress } from '../progress.js';
import { compassTable, sensitivityLines } from '../report/compass.js';
import { responseLines } from '../report/compass-response.js';
import { scoreVideoResponse } from '../runs/compass-score.js';
import { maxDuration, metricFlagSpecs, responseOptions, scanOptions } from './compass-metric-flags.js';
import {
  type FolderFlags,
  folderFlagSpecs,
  loadCaseFlags,
  ONE_CASE_FLAG_SPECS,
  parseModes,
  partial,
  runInput,
  SHARD_FLAG_SPECS,
  showMissing,
  showModesNote,
} from './compass-options.js';
import { onnxFlags } from './embed.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import type { CliImpls } from './impls.js';
import { withInterruptShown } from './interrupt.js';
import { parseNumberFlag, printJson, printLines, printNotice, printResult } from './output.js';

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

const VALIDATE_FLAG_SPECS = flagSpecs({
  cases: { flags: '--cases <file>', description: 'cases.jsonl', required: true },
  ...JSON_FLAG_SPECS,
});

/** Whether an interrupted run keeps what it finished: scans in the scan cache, or judge answers. */
function cachesWork(o: FolderFlags): boolean {
  return (o.scanCache !== false && o.cache !== false) || o.segmenter === 'judge';
}

/** `kfbench compass validate`. */
function registerValidate(compass: Command): void {
  const cmd = compass
    .command('validate')
    .description(
      'check a cases.jsonl line by line (shape, counts, targets, shots, ids) and decode every keyframe image',
    );
  addFlags(cmd, VALIDATE_FLAG_SPECS).action(async (o: FlagValues<typeof VALIDATE_FLAG_SPECS>) => {
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

/** `compass response`'s flags, declared once. */
function responseFlagSpecs() {
  return flagSpecs({
    ...ONE_CASE_FLAG_SPECS,
    video: { flags: '--video <file>', description: 'the generated video', required: true },
    ...JSON_FLAG_SPECS,
    ...metricFlagSpecs(),
  });
}

/** `kfbench compass response`. */
function registerResponse(compass: Command): void {
  const cmd = compass
    .command('response')
    .description('the six keyframe-response metrics of one video for one case');
  addFlags(cmd, responseFlagSpecs()).action(async (o: FlagValues<ReturnType<typeof responseFlagSpecs>>) => {
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
    ...JSON_FLAG_SPECS,
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
    const { run, summary } = await withInterruptShown(
      (signal, onProgress) => impls.scoreCompass({ ...folderInput(o, signal, onProgress), out, maxCalls }),
      cachesWork(o),
    );
    // the modes scored and what is missing come before the table, so that no table is read as
    // whole that is not
    showModesNote(o);
    showMissing(run, o.videos);
    printNotice(summary.embedder_notice);
    if (o.json)
      printJson({
        summary,
        scanned: run.scanned,
        cached: run.cached,
        missing: run.missing,
        failed: run.failed,
        out,
      });
    else
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

/** `compass sensitivity`'s flags, declared once. */
function sensitivityFlagSpecs() {
  return flagSpecs({
    psnrLows: {
      flags: '--psnr-lows <list>',
      description: 'PSNR lower anchors (dB)',
      default: DEFAULT_GRID.psnrLow.join(','),
    },
    ssimLows: {
      flags: '--ssim-lows <list>',
      description: 'SSIM lower anchors',
      default: DEFAULT_GRID.ssimLow.join(','),
    },
    fusions: {
      flags: '--fusions <list>',
      description: 'fusion weights',
      default: DEFAULT_GRID.fusion.join(','),
    },
    ...JSON_FLAG_SPECS,
    ...folderFlagSpecs(),
  });
}

/** `kfbench compass sensitivity`. */
function registerSensitivity(compass: Command, impls: CliImpls): void {
  const cmd = compass
    .command('sensitivity')
    .description(
      'vary the pixel-score constants; largest change of mean KFS, lowest Spearman ρ of the ranking',
    );
  addFlags(cmd, sensitivityFlagSpecs()).action(
    async (o: FlagValues<ReturnType<typeof sensitivityFlagSpecs>>) => {
      const list = (name: string, v: string) => v.split(',').map((x) => parseNumberFlag(name, x));
      const grid = {
        psnrLow: list('--psnr-lows', o.psnrLows),
        ssimLow: list('--ssim-lows', o.ssimLows),
        fusion: list('--fusions', o.fusions),
      };
      const { run, result: r } = await withInterruptShown(
        (signal, onProgress) =>
          impls.compassSensitivity({ ...folderInput(o, signal, onProgress), out: o.out, grid }),
        cachesWork(o),
      );
      showModesNote(o);
      showMissing(run, o.videos);
      if (o.json) printJson(r);
      else printLines(sensitivityLines(r));
      partial(run);
    },
  );
}

const GRID_FLAG_SPECS = flagSpecs({
  ...ONE_CASE_FLAG_SPECS,
  out: { flags: '--out <file>', description: 'grid image (.jpg or .png)', required: true },
  cellWidth: { flags: '--cell-width <px>', description: 'cell width', default: '320' },
  labels: { flags: '--no-labels', description: 'no index labels' },
  ...JSON_FLAG_SPECS,
});

/** `kfbench compass grid`. */
function registerGrid(compass: Command): void {
  const cmd = compass
    .command('grid')
    .description("a storyboard grid of a case's keyframes (for generators that take one image)");
  addFlags(cmd, GRID_FLAG_SPECS).action(async (o: FlagValues<typeof GRID_FLAG_SPECS>) => {
    const c = await loadCaseFlags(o);
    const cellWidth = parseNumberFlag('--cell-width', o.cellWidth, (n) => Number.isInteger(n) && n >= 16);
    const r = await storyboardGrid(c, o.out, defined({ labels: o.labels, cellWidth }));
    printResult(o.json, r, () => [`${o.out}: ${r.keyframes} keyframes, ${r.width}×${r.height}`]);
  });
}

const PROMPTS_FLAG_SPECS = flagSpecs({
  ...ONE_CASE_FLAG_SPECS,
  modes: { flags: '--modes <list>', description: 'prompt modes', default: PROMPT_MODES.join(',') },
  ...JSON_FLAG_SPECS,
});

/** `kfbench compass prompts`. */
function registerPrompts(compass: Command): void {
  const cmd = compass
    .command('prompts')
    .description('render the generation prompt templates for a case (minimal / segment-specific)');
  addFlags(cmd, PROMPTS_FLAG_SPECS).action(async (o: FlagValues<typeof PROMPTS_FLAG_SPECS>) => {
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
