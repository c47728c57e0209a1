/** `kfbench compass report | align`: the leaderboard of an evaluate folder, and agreement with people. */
import type { Command } from 'commander';
import { alignFiles } from '../compass/align/align.js';
import { EVALUATION_RUN_FILES } from '../compass/run/outputs.js';
import { compassReport } from '../report/leaderboard-file.js';
import { textTable } from '../report/table.js';
import { outputFiles, refuseOverlap } from '../store/path-overlap.js';
import { registerCompassExport } from './compass-export.js';
import { RANK_BY_HELP, rankBy } from './compass-options.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import { parseNumberFlag, printJson, printLines } from './output.js';

const REPORT_FLAG_SPECS = flagSpecs({
  eval: { flags: '--eval <dir>', description: 'a compass evaluate --out folder', required: true },
  format: { flags: '--format <f>', description: 'text | json | csv | md | html', default: 'text' },
  out: { flags: '--out <file>', description: 'write to a file instead of stdout' },
  rankBy: { flags: '--rank-by <table>', description: RANK_BY_HELP },
});

const ALIGN_FLAG_SPECS = flagSpecs({
  judgments: {
    flags: '--judgments <file>',
    description: 'JSONL {case_id, model_a, model_b, dimension, annotator, choice: A|B|Tie}',
    required: true,
  },
  scores: {
    flags: '--scores <file>',
    description: 'JSONL {case_id, model, dimension, score}',
    required: true,
  },
  resamples: {
    flags: '--resamples <n>',
    description: 'case-clustered bootstrap resamples',
    default: '10000',
  },
  seed: { flags: '--seed <s>', description: 'bootstrap seed', default: '0' },
  ...JSON_FLAG_SPECS,
});

export function registerCompassReport(compass: Command): void {
  registerCompassExport(compass);

  const report = compass
    .command('report')
    .description('the Compass leaderboard of an evaluate folder: text, JSON, CSV, Markdown or HTML');
  addFlags(report, REPORT_FLAG_SPECS).action(async (o: FlagValues<typeof REPORT_FLAG_SPECS>) => {
    refuseOverlap({
      reads: outputFiles(o.eval, EVALUATION_RUN_FILES, '--eval'),
      writes: [{ flag: '--out', path: o.out }],
    });
    const text = await compassReport({ ...o, rankBy: rankBy(o.rankBy) });
    if (!o.out) process.stdout.write(text);
  });

  const align = compass
    .command('align')
    .description('human pairwise judgments against automatic scores: win rates, agreement, Spearman, α');
  addFlags(align, ALIGN_FLAG_SPECS).action(async (o: FlagValues<typeof ALIGN_FLAG_SPECS>) => {
    const B = parseNumberFlag('--resamples', o.resamples, (n) => Number.isInteger(n) && n >= 100);
    const r = await alignFiles(o.judgments, o.scores, { B, seed: o.seed });
    if (o.json) return printJson(r);
    const f = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));
    const lines: string[] = [];
    for (const d of r.dimensions) {
      const a = r.agreement[d]!;
      const sp = r.spearman[d]!;
      const p = sp.p_exact ?? sp.p_asymptotic;
      lines.push(
        `== ${d}: agreement ${f(a.rate)}${a.ci ? ` (95 % CI ${f(a.ci[0])}–${f(a.ci[1])})` : ''} over ${a.n} decisive items (coverage ${f(a.coverage)}${a.unscored ? `; ${a.unscored} without an automatic score, left out` : ''}); Spearman ρ ${f(sp.rho)}${p !== undefined ? ` (p ${sp.p_exact !== undefined ? 'exact' : 'asymptotic'} ${f(p)})` : ''}${sp.ci ? `, 95 % CI ${f(sp.ci[0])}–${f(sp.ci[1])}` : ''} over the ${sp.cases} judged cases${sp.dropped_unjudged ? ` (${sp.dropped_unjudged} scored cases without a human judgment left out)` : ''}${sp.missing_scores ? `; ${sp.missing_scores} judged case–model pairs without an automatic score` : ''}`,
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
  });
}
