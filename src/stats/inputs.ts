/**
 * The statistics commands' input files: schemas and loaders that turn bad data into one-line
 * `file:line` errors before any computation.
 */
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import { readJsonFile, readJsonlAll } from '../store/jsonl.js';
import type { Comparison } from './bradley-terry.js';
import type { Scored } from './eer.js';

const finite = z.number().refine((v) => Number.isFinite(v), 'must be a finite number');

const ComparisonLine = z.object({
  a: z.string().min(1),
  b: z.string().min(1),
  score: z.union([z.literal(0), z.literal(0.5), z.literal(1)], { error: 'score must be 0, 0.5 or 1' }),
});

export async function loadComparisons(file: string): Promise<Comparison[]> {
  const lines = await readJsonlAll(file, ComparisonLine);
  for (const l of lines) {
    if (l.value.a === l.value.b)
      throw new BadInputError(`a and b are the same item (${l.value.a})`, { file, line: l.line });
  }
  if (lines.length === 0)
    throw new BadInputError('no comparisons: expected lines {"a","b","score"}', { file });
  return lines.map((l) => l.value);
}

const PairedSeries = z.object({ x: z.array(finite), y: z.array(finite) });

export async function loadPairedSeries(file: string): Promise<{ x: number[]; y: number[] }> {
  const d = await readJsonFile(file, PairedSeries);
  if (d.x.length !== d.y.length)
    throw new BadInputError(`x has ${d.x.length} values but y has ${d.y.length}`, { file });
  if (d.x.length < 2) throw new BadInputError(`needs at least 2 pairs, got ${d.x.length}`, { file });
  return d;
}

const RaterMatrix = z.array(z.array(z.union([finite, z.null()])));

export async function loadRaterMatrix(file: string): Promise<(number | null)[][]> {
  const m = await readJsonFile(file, RaterMatrix);
  if (m.length < 2) throw new BadInputError(`needs at least 2 rater rows, got ${m.length}`, { file });
  const units = m[0]!.length;
  for (const [i, row] of m.entries()) {
    if (row.length !== units)
      throw new BadInputError(`row ${i + 1} has ${row.length} units but row 1 has ${units}`, { file });
  }
  return m;
}

const ScoredLine = z.object({
  score: finite,
  label: z.union([z.literal(0), z.literal(1)], { error: 'label must be 0 or 1' }),
});

export async function loadScored(file: string): Promise<Scored[]> {
  const lines = await readJsonlAll(file, ScoredLine);
  const data = lines.map((l) => l.value);
  if (!data.some((d) => d.label === 1) || !data.some((d) => d.label === 0)) {
    throw new BadInputError('needs at least one line with label 1 and one with label 0', { file });
  }
  return data;
}
