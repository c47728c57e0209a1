/**
 * `compass export-scores`: the per-case automatic scores `compass align` reads
 * (`{case_id, model, dimension, score}` per line, after a header row) from a `compass score` or
 * `compass evaluate` folder. Dimensions: the six keyframe-response metrics and their two groups
 * (response.jsonl); with evaluation.jsonl also the quality metrics (SVQ … AVC), their groups and
 * `overall`. By default only the prompt mode the human study judged — segment-specific: "Annotators
 * see the input keyframes and segment-specific prompt" (seed 001, App. D; its "60 segment-level
 * cases") — so that automatic and human scores judge the same videos; `promptMode` picks the other
 * mode or `both` (a case's score is then the mean over its modes). The header row names the modes.
 * A case's score is the mean over those modes (and runs) of the values that were measured; a
 * (case, model, dimension) with none — unresolved, not measured, not applicable — is left out and
 * counted, never written as 0.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { BadInputError, UsageError } from '../../errors.js';
import { readJsonl, writeJsonl } from '../../store/jsonl.js';
import { PROMPT_MODES, type PromptMode } from '../cases/cases.js';
import { type AutoScore, type ScoresHeader, ScoresLine } from '../schemas/align.js';

const num = z.number().nullable();
/** The fields of a response.jsonl row read here (the rest is kept by the writer's own format). */
const ResponseScores = z.looseObject({
  case_id: z.string().min(1),
  model: z.string().min(1),
  prompt_mode: z.string().min(1),
  metrics: z.record(z.string(), z.number()),
  groups: z.record(z.string(), z.number()),
});
/** The fields of an evaluation.jsonl row read here. */
const EvaluationScores = z.looseObject({
  case_id: z.string().min(1),
  model: z.string().min(1),
  prompt_mode: z.string().min(1),
  quality: z.looseObject({
    metrics: z.record(z.string(), z.looseObject({ score: num })),
    groups: z.record(z.string(), z.looseObject({ score: num })),
  }),
  overall: z.looseObject({ score: num }),
});

/** The prompt mode the human study judged (seed 001, App. D): the default of the export. */
export const HUMAN_STUDY_PROMPT_MODE: PromptMode = 'segment_specific';

/** `--prompt-mode`: one prompt mode, or `both` (a case's score the mean over both). */
export type ExportPromptMode = PromptMode | 'both';
export const EXPORT_PROMPT_MODES: readonly ExportPromptMode[] = [...PROMPT_MODES, 'both'];

export interface ExportOptions {
  /** Only these dimensions (default: every one found). */
  dimensions?: readonly string[];
  /** The prompt mode exported (default: the one the human study judged, segment_specific). */
  promptMode?: ExportPromptMode;
}

/** The header row: the modes exported, and why that is the default. */
function exportHeader(promptMode: ExportPromptMode): ScoresHeader {
  return {
    header: 'kfbench compass export-scores',
    prompt_modes: promptMode === 'both' ? [...PROMPT_MODES] : [promptMode],
    note:
      promptMode === HUMAN_STUDY_PROMPT_MODE
        ? 'segment_specific only: the prompt mode the human study judged ("Annotators see the input keyframes and segment-specific prompt", KeyFrame-Compass App. D)'
        : `${promptMode === 'both' ? 'the mean over both prompt modes' : `${promptMode} only`} (--prompt-mode); the human study judged segment_specific (KeyFrame-Compass App. D)`,
  };
}

interface ExportResult {
  scores: AutoScore[];
  dimensions: string[];
  models: string[];
  cases: number;
  /** (case, model, dimension) triples with no measured value in any prompt mode or run. */
  omitted: number;
  /** The header row written before the scores. */
  header: ScoresHeader;
}

export async function exportScores(dir: string, o: ExportOptions = {}): Promise<ExportResult> {
  const rf = join(dir, 'response.jsonl');
  if (!existsSync(rf))
    throw new BadInputError('missing (give a compass score or compass evaluate --out folder)', { file: rf });
  // keyed by (case, model, dimension); the key's parts are kept beside the values
  const values = new Map<
    string,
    { case_id: string; model: string; dimension: string; vs: (number | null)[] }
  >();
  const add = (case_id: string, model: string, dimension: string, v: number | null) => {
    const k = JSON.stringify([case_id, model, dimension]);
    const entry = values.get(k) ?? { case_id, model, dimension, vs: [] };
    entry.vs.push(v);
    values.set(k, entry);
  };
  const header = exportHeader(o.promptMode ?? HUMAN_STUDY_PROMPT_MODE);
  const keep = (mode: string) => header.prompt_modes.includes(mode);
  for await (const { value: r } of readJsonl(rf, ResponseScores)) {
    if (!keep(r.prompt_mode)) continue;
    for (const [d, v] of [...Object.entries(r.groups), ...Object.entries(r.metrics)])
      add(r.case_id, r.model, d, v);
  }
  const ef = join(dir, 'evaluation.jsonl');
  if (existsSync(ef))
    for await (const { value: r } of readJsonl(ef, EvaluationScores)) {
      if (!keep(r.prompt_mode)) continue;
      for (const [d, v] of [...Object.entries(r.quality.groups), ...Object.entries(r.quality.metrics)])
        add(r.case_id, r.model, d, v.score);
      add(r.case_id, r.model, 'overall', r.overall.score);
    }
  const found = [...new Set([...values.values()].map((e) => e.dimension))];
  if (o.dimensions) {
    const unknown = o.dimensions.filter((d) => !found.includes(d));
    if (unknown.length)
      throw new UsageError(
        `--dimensions: ${unknown.join(', ')} not in ${dir} (it has ${found.sort().join(', ')})`,
      );
  }
  const wanted = new Set(o.dimensions ?? found);
  const scores: AutoScore[] = [];
  let omitted = 0;
  for (const { case_id, model, dimension, vs } of values.values()) {
    if (!wanted.has(dimension)) continue;
    const measured = vs.filter((v): v is number => v !== null);
    if (!measured.length) {
      omitted++;
      continue;
    }
    scores.push({ case_id, model, dimension, score: measured.reduce((a, b) => a + b, 0) / measured.length });
  }
  if (!scores.length)
    throw new BadInputError(
      `no scores to export in prompt mode ${header.prompt_modes.join(' or ')}${o.promptMode ? '' : ' (the default: the human study judged it; --prompt-mode minimal or both for the others)'}`,
      { file: rf },
    );
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  scores.sort((a, b) => cmp(a.case_id, b.case_id) || cmp(a.model, b.model) || cmp(a.dimension, b.dimension));
  return {
    scores,
    dimensions: [...wanted].sort(),
    models: [...new Set(scores.map((s) => s.model))].sort(),
    cases: new Set(scores.map((s) => s.case_id)).size,
    omitted,
    header,
  };
}

/** What `exportScoresFile` wrote: the export's counts, its scores counted, and the file. */
export type ExportFileResult = Omit<ExportResult, 'scores'> & { scores: number; out: string };

/** `compass export-scores` as one call: the scores of `dir` exported and written to `out` (JSONL, header first). */
export async function exportScoresFile(
  dir: string,
  out: string,
  o: ExportOptions = {},
): Promise<ExportFileResult> {
  const { scores, ...rest } = await exportScores(dir, o);
  await writeJsonl(out, ScoresLine, [rest.header, ...scores]);
  return { ...rest, scores: scores.length, out };
}
