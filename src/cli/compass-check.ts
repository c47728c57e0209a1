/** `kfbench compass check-pipeline`: the identities a sceptical researcher runs first, on your own keyframes. */
import type { Command } from 'commander';
import { PartialError } from '../errors.js';
import { pipelineCheckLines } from '../report/compass-check.js';
import { checkCompassPipeline } from '../runs/compass-check-pipeline.js';
import { metricFlagSpecs, responseOptions, scanOptions } from './compass-metric-flags.js';
import { onnxFlags } from './embed.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import { withInterruptShown } from './interrupt.js';
import { printJson, printLines } from './output.js';

function checkFlagSpecs() {
  return flagSpecs({
    cases: { flags: '--cases <file>', description: 'cases.jsonl', required: true },
    caseId: { flags: '--case-id <id>', description: 'one case (default: every case of the file)' },
    keep: { flags: '--keep <dir>', description: 'keep the rendered check videos in this folder' },
    ...JSON_FLAG_SPECS,
    ...metricFlagSpecs(),
  });
}

export function registerCompassCheck(compass: Command): void {
  const cmd = compass
    .command('check-pipeline')
    .description(
      'render your keyframes into videos at their targets (exact copy, delayed, half size at CRF 28, reversed, one left out, one held 2 s), score them with your settings and say whether each identity holds (exit 5 if one does not)',
    );
  addFlags(cmd, checkFlagSpecs()).action(async (o: FlagValues<ReturnType<typeof checkFlagSpecs>>) => {
    const response = responseOptions(o);
    const scan = scanOptions(o);
    const checks = await withInterruptShown((signal, onProgress) =>
      checkCompassPipeline({
        casesFile: o.cases,
        caseId: o.caseId,
        embedder: o.embedder,
        embedderOptions: onnxFlags(o),
        response,
        scan,
        keep: o.keep,
        onProgress,
        signal,
      }),
    );
    if (o.json) printJson(checks);
    else printLines(pipelineCheckLines(checks));
    const failed = checks.filter((c) => !c.holds).map((c) => c.case_id);
    if (failed.length)
      throw new PartialError(
        `an identity does not hold for ${failed.length} case(s): ${failed.join(', ')} — no number from this pipeline can be trusted until it does`,
        failed,
      );
  });
}
