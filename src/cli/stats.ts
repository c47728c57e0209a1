/** `kfbench stats …`: the statistics building blocks on the user's own data. */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import {
  bradleyTerryOfFile,
  equalErrorRateOfFile,
  krippendorffAlphaOfFile,
  rankCorrelationOfFile,
} from '../stats/files.js';
import { ALPHA_LEVELS } from '../stats/krippendorff.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import { parseNumberFlag, printJson, printLines } from './output.js';

const fmt = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? 'n/a' : v.toFixed(6));

const BT_FLAG_SPECS = flagSpecs({
  ridge: {
    flags: '--ridge <lambda>',
    description: 'L2 penalty applied when the MLE does not exist',
    default: '0.001',
  },
  ...JSON_FLAG_SPECS,
});

const RANK_FLAG_SPECS = flagSpecs({
  ...JSON_FLAG_SPECS,
});

const KRIPP_FLAG_SPECS = flagSpecs({
  level: { flags: '--level <level>', description: 'nominal | ordinal | interval', default: 'nominal' },
  ...JSON_FLAG_SPECS,
});

const EER_FLAG_SPECS = flagSpecs({
  at: { flags: '--at <threshold>', description: 'also report FPR/FNR at this threshold', default: '0.8' },
  ...JSON_FLAG_SPECS,
});

export function registerStats(stats: Command): void {
  const btCmd = stats
    .command('bt')
    .description('Bradley–Terry strengths from comparisons: lines {"a","b","score": 1|0|0.5}')
    .argument('<file>');
  addFlags(btCmd, BT_FLAG_SPECS).action(async (file: string, o: FlagValues<typeof BT_FLAG_SPECS>) => {
    const ridge = parseNumberFlag('--ridge', o.ridge, (n) => n > 0);
    const r = await bradleyTerryOfFile(file, { ridge });
    if (o.json) printJson({ strengths: r.strengths, ridge: r.ridge, mle_exists: r.mle_exists });
    else
      printLines([
        ...Object.entries(r.strengths)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${v.toFixed(6).padStart(12)}  ${k}`),
        r.mle_exists
          ? 'MLE exists (no ridge)'
          : `MLE does not exist (separable data): ridge λ = ${r.ridge} applied`,
      ]);
  });

  const rankCmd = stats
    .command('rank')
    .description('Spearman ρ and Kendall τ-b of {"x": […], "y": […]}')
    .argument('<file>');
  addFlags(rankCmd, RANK_FLAG_SPECS).action(async (file: string, o: FlagValues<typeof RANK_FLAG_SPECS>) => {
    const r = await rankCorrelationOfFile(file);
    if (o.json) printJson(r);
    else
      printLines([
        `n ${r.n}  Spearman ρ ${fmt(r.spearman)}  Kendall τ-b ${fmt(r.kendall_tau_b)}`,
        `p (asymptotic) ${fmt(r.p_asymptotic)}${r.p_exact !== undefined ? `  p (exact permutation) ${fmt(r.p_exact)}` : ''}`,
      ]);
  });

  const krippCmd = stats
    .command('kripp')
    .description("Krippendorff's α of a rater × unit matrix (JSON array of rows, null = missing)")
    .argument('<file>');
  addFlags(krippCmd, KRIPP_FLAG_SPECS).action(
    async (file: string, o: FlagValues<typeof KRIPP_FLAG_SPECS>) => {
      const level = ALPHA_LEVELS.find((l) => l === o.level);
      if (level === undefined)
        throw new UsageError(
          `--level must be nominal, ordinal or interval, got "${o.level}"${didYouMean(o.level, ALPHA_LEVELS)}`,
        );
      const r = await krippendorffAlphaOfFile(file, level);
      if (o.json) printJson({ alpha: r.alpha, units_used: r.units_used });
      else printLines([`α (${o.level}) ${fmt(r.alpha)} over ${r.units_used} units`]);
    },
  );

  const eerCmd = stats
    .command('eer')
    .description('equal error rate of scored pairs: lines {"score": s, "label": 0|1}')
    .argument('<file>');
  addFlags(eerCmd, EER_FLAG_SPECS).action(async (file: string, o: FlagValues<typeof EER_FLAG_SPECS>) => {
    const at = parseNumberFlag('--at', o.at);
    const r = await equalErrorRateOfFile(file, at);
    if (o.json) printJson(r);
    else
      printLines([
        `EER ${fmt(r.eer)} at threshold ${fmt(r.threshold)}`,
        `at ${at}: FPR ${fmt(r.at.fpr)}  FNR ${fmt(r.at.fnr)}`,
      ]);
  });
}
