/** `kfbench compass …`: keyframe-conditioned video generation, the keyframe-response half. */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { align, loadAlignInputs } from '../compass/align.js';
import { loadCases, loadOneCase, PROMPT_MODES, type PromptMode } from '../compass/cases.js';
import { writeResponseRun } from '../compass/outputs.js';
import { generationPrompt } from '../compass/prompts.js';
import { budgetCheck, checklistMetrics, evaluateCompass, groupsToAsk } from '../compass/quality/evaluate.js';
import { type Leaderboard, leaderboard } from '../compass/quality/leaderboard.js';
import { writeEvaluationRun } from '../compass/quality/outputs.js';
import { DEFAULT_QUALITY_OPTIONS } from '../compass/quality/video.js';
import {
  DEFAULT_RESPONSE_OPTIONS,
  DEFAULT_SCAN_OPTIONS,
  type ResponseOptions,
} from '../compass/response/options.js';
import { scoreResponse } from '../compass/response/report.js';
import { cachedScan, ScanCache } from '../compass/response/scan-cache.js';
import { checkTargets, type ResponseRow, scoreModels } from '../compass/score.js';
import { DEFAULT_GRID, sensitivity } from '../compass/sensitivity.js';
import { buildMiniCompass } from '../dev/mini-compass/build.js';
import { createEmbedder } from '../embed/registry.js';
import { PartialError, UsageError } from '../errors.js';
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
import { registerCompassExport } from './compass-export.js';
import { judgeFlags, judgeOptions } from './judge.js';
import { parseNumberFlag, printJson, printLines } from './output.js';
import { progress } from './progress.js';

interface MetricFlags {
  embedder: string;
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
  return cmd
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
}

function folderFlags(cmd: Command): Command {
  return metricFlags(
    cmd
      .requiredOption('--cases <file>', 'cases.jsonl')
      .requiredOption('--videos <dir>', 'folder of <model>/<case_id>__<prompt_mode>.mp4')
      .requiredOption('--model <names...>', 'model folders to score')
      .option('--modes <list>', 'prompt modes', PROMPT_MODES.join(','))
      .option('--out <dir>', 'where results go', 'compass-response')
      .option('--cache <file>', 'scan cache (default: <out>/scan-cache.sqlite)')
      .option('--no-cache', 'do not read or write the scan cache'),
  );
}

async function runFolder(o: FolderFlags, label: string) {
  const response = responseOptions(o);
  const scan = scanOptions(o);
  const cases = await loadCases(o.cases);
  const embedder = await createEmbedder(o.embedder);
  const cache =
    o.cache === false ? undefined : new ScanCache(o.cache ?? join(resolve(o.out), 'scan-cache.sqlite'));
  const bar = progress('videos');
  const t0 = Date.now();
  let started = false;
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
      onVideo: (done, total, what) => {
        if (!started) {
          bar.start(total, label);
          started = true;
        }
        bar.update(done, what);
      },
    });
    bar.stop();
    return { run, wall_s: (Date.now() - t0) / 1000, embedder, cache };
  } finally {
    cache?.close();
    await embedder.close();
  }
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
      const info = await probe(o.video);
      if (c.structure === 'one_take') checkTargets(c, info.duration_s, o.video);
      const embedder = await createEmbedder(o.embedder);
      try {
        const { scan } = await cachedScan(
          { video: o.video, keyframes: c.keyframes },
          embedder,
          scanOpts,
          {},
          undefined,
        );
        const r = scoreResponse(c, scan, embedder, response);
        if (o.json) printJson(r);
        else
          printLines([
            `case ${r.case_id}, embedder ${r.embedder}, γ = ${r.gamma}, ${r.shots.length} shot${r.shots.length === 1 ? '' : 's'}`,
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

  folderFlags(
    compass
      .command('score')
      .description('keyframe response of whole model folders: per-video JSONL and a summary by model'),
  ).action(async (o: FolderFlags) => {
    const out = resolve(o.out);
    const { run, wall_s, embedder } = await runFolder(o, 'compass score');
    const summary = await writeResponseRun(out, run, o.model, { embedder: embedder.id, wall_s });
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
      const r = sensitivity(run.rows as ResponseRow[], grid, responseOptions(o));
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

  judgeOptions(
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
        .option(
          '--quality-fps <r>',
          'frames per second sent to the judge',
          String(DEFAULT_QUALITY_OPTIONS.fps),
        )
        .option(
          '--frame-budget <n>',
          'at most this many frames per video',
          String(DEFAULT_QUALITY_OPTIONS.budget),
        )
        .option('--frame-width <px>', 'width of the frames sent', String(DEFAULT_QUALITY_OPTIONS.frameWidth))
        .option('--judge-audio', 'the judge takes audio input (asks AMA and AVC)')
        .option('--max-tokens <n>', 'reply budget per call', '2048')
        .option(
          '--max-calls <n>',
          'stop starting new videos after this many judge calls (exit 5; resume later)',
        )
        .option('--dry-run', 'count the judge calls needed and cached, spend none'),
    ),
  ).action(
    async (
      o: MetricFlags &
        Parameters<typeof judgeFlags>[0] & {
          cases: string;
          videos: string;
          model: string[];
          modes: string;
          out: string;
          runs: string;
          qualityFps: string;
          frameBudget: string;
          frameWidth: string;
          judgeAudio?: boolean;
          maxTokens: string;
          maxCalls?: string;
          dryRun?: boolean;
        },
    ) => {
      const out = resolve(o.out);
      const int = (name: string, v: string, min: number) =>
        parseNumberFlag(name, v, (n) => Number.isInteger(n) && n >= min);
      const runs = int('--runs', o.runs, 1);
      const quality = {
        fps: parseNumberFlag('--quality-fps', o.qualityFps, (n) => n > 0),
        budget: int('--frame-budget', o.frameBudget, 1),
        frameWidth: int('--frame-width', o.frameWidth, 16),
        audio: !!o.judgeAudio,
      };
      const response = responseOptions(o);
      const scan = scanOptions(o);
      const modes = parseModes(o.modes);
      const cases = await loadCases(o.cases);
      const flags = judgeFlags(o);
      const settings = resolveJudgeSettings({
        ...flags,
        cache: flags.cache ?? join(out, 'judge-cache.sqlite'),
        maxTokens: int('--max-tokens', o.maxTokens, 16),
      });
      if (o.dryRun) {
        const n = cases.reduce(
          (s, c) => s + modes.reduce((t, m) => t + checklistMetrics(c, m, quality).length, 0),
          0,
        );
        const groups = cases.reduce(
          (s, c) => s + modes.reduce((t, m) => t + groupsToAsk(c, m, quality), 0),
          0,
        );
        printLines([
          `${n} checklist questions and at most ${groups * o.model.length * runs} grouped-judge questions (${o.model.length} models × ${runs} run(s)); nothing was asked`,
        ]);
        return;
      }
      const judge = await openJudge(settings);
      const embedder = await createEmbedder(o.embedder);
      const cache = new ScanCache(join(out, 'scan-cache.sqlite'));
      const bar = progress('videos');
      let started = false;
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
          ...(o.maxCalls ? { maxCalls: int('--max-calls', o.maxCalls, 0) } : {}),
          onVideo: (done, total, what) => {
            if (!started) {
              bar.start(total, 'compass evaluate');
              started = true;
            }
            bar.update(done, what);
          },
        });
        bar.stop();
        const lb = leaderboard(r.videos, o.model, { judge: judge.judge.name, embedder: embedder.id, runs });
        await writeEvaluationRun(out, r, lb, o.model, {
          wall_s: (Date.now() - t0) / 1000,
          judge: judge.judge.stats,
        });
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
            `== ${d}: agreement ${f(a.rate)} over ${a.n} decisive items (coverage ${f(a.coverage)}${a.unscored ? `; ${a.unscored} without an automatic score, left out` : ''}); Spearman ρ ${f(sp.rho)}${p !== undefined ? ` (p ${sp.p_exact !== undefined ? 'exact' : 'asymptotic'} ${f(p)})` : ''}${sp.ci ? `, 95 % CI ${f(sp.ci[0])}–${f(sp.ci[1])}` : ''}`,
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
        lines.push(
          '',
          "Krippendorff's α (nominal) per model pair:",
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
