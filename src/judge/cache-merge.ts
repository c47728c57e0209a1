/**
 * `kfbench cache merge`: the union of judge caches (one per shard or machine — SQLite must not be
 * shared over a network filesystem, so each keeps its own) into a new file. A key held by several
 * inputs must hold the same answer (the parsed answer, or the same unresolved reason): the first
 * input's row is kept and every disagreement is reported, never overwritten silently.
 */
import { existsSync } from 'node:fs';
import { BadInputError, UsageError } from '../errors.js';
import { type CachedAnswer, JudgeCache } from './cache.js';

export interface CacheConflict {
  key: string;
  /** The file whose answer was kept, and the one that disagreed. */
  kept: string;
  other: string;
}

export interface CacheMergeReport {
  inputs: { file: string; rows: number }[];
  /** Rows in the output. */
  rows: number;
  /** Rows found in more than one input with the same answer. */
  shared: number;
  conflicts: CacheConflict[];
}

const sameAnswer = (a: CachedAnswer, b: CachedAnswer) =>
  JSON.stringify(a.answer) === JSON.stringify(b.answer) && a.unresolved === b.unresolved;

export function mergeJudgeCaches(inputs: readonly string[], out: string): CacheMergeReport {
  if (inputs.length === 0) throw new UsageError('give the caches to merge');
  if (existsSync(out)) throw new UsageError(`--out ${out} exists: merge into a new file`);
  for (const f of inputs) if (!existsSync(f)) throw new BadInputError('no such cache file', { file: f });
  const target = new JudgeCache(out);
  const from = new Map<string, string>();
  const report: CacheMergeReport = { inputs: [], rows: 0, shared: 0, conflicts: [] };
  try {
    for (const file of inputs) {
      const src = new JudgeCache(file);
      let n = 0;
      try {
        target.db.exec('BEGIN');
        for (const r of src.rows()) {
          n++;
          const have = target.get(r.key);
          if (!have) {
            target.put(r.key, { backend: r.backend, model: r.model, protocol: r.protocol }, r);
            from.set(r.key, file);
          } else if (sameAnswer(have, r)) report.shared++;
          else report.conflicts.push({ key: r.key, kept: from.get(r.key)!, other: file });
        }
        target.db.exec('COMMIT');
      } finally {
        src.close();
      }
      report.inputs.push({ file, rows: n });
    }
    report.rows = target.stats().rows;
  } finally {
    target.close();
  }
  return report;
}
