/** `kfbench compass export-scores`: per-case automatic scores for `compass align`. */
import type { Command } from 'commander';
import {
  EXPORT_PROMPT_MODES,
  exportScoresFile,
  HUMAN_STUDY_PROMPT_MODE,
} from '../compass/align/export-scores.js';
import { EVALUATION_RUN_FILES } from '../compass/run/outputs.js';
import { defined } from '../defined.js';
import { outputFiles, refuseOverlap } from '../store/path-overlap.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import { oneOf, printJson, printLines } from './output.js';

const list = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const EXPORT_FLAG_SPECS = flagSpecs({
  results: {
    flags: '--results <dir>',
    description: 'a compass score or compass evaluate --out folder',
    required: true,
  },
  out: { flags: '--out <file>', description: 'JSONL {case_id, model, dimension, score}', required: true },
  dimensions: {
    flags: '--dimensions <d,…>',
    description:
      'only these (default: every one found: the response metrics and groups; after evaluate also SVQ … AVC, the quality groups and overall)',
  },
  promptMode: {
    flags: '--prompt-mode <mode>',
    description:
      "segment_specific (the prompt mode the human study judged), minimal, or both (a case scores the mean over them); named in the file's header row",
    default: HUMAN_STUDY_PROMPT_MODE,
  },
  ...JSON_FLAG_SPECS,
});

export function registerCompassExport(compass: Command): void {
  const cmd = compass
    .command('export-scores')
    .description(
      'write the per-case, per-dimension automatic scores of a score/evaluate folder, as compass align --scores reads them',
    );
  addFlags(cmd, EXPORT_FLAG_SPECS).action(async (o: FlagValues<typeof EXPORT_FLAG_SPECS>) => {
    refuseOverlap({
      reads: outputFiles(o.results, EVALUATION_RUN_FILES, '--results'),
      writes: [{ flag: '--out', path: o.out }],
    });
    const r = await exportScoresFile(
      o.results,
      o.out,
      defined({
        dimensions: list(o.dimensions),
        promptMode: oneOf('--prompt-mode', o.promptMode, EXPORT_PROMPT_MODES),
      }),
    );
    if (o.json) return printJson(r);
    printLines([
      `${r.scores} scores (${r.cases} cases × ${r.models.length} models × ${r.dimensions.length} dimensions${r.omitted ? `; ${r.omitted} not measured, left out` : ''}) → ${o.out}`,
      `prompt mode: ${r.header.note}`,
      `dimensions: ${r.dimensions.join(', ')}`,
    ]);
  });
}
