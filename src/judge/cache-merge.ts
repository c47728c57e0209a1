/**
 * `kfbench cache merge`: the union of judge caches (one per shard or machine — SQLite must not be
 * shared over a network filesystem, so each keeps its own) into a new file. A key held by several
 * inputs must hold the same answer (the parsed answer, or the same unresolved reason): the first
 * input's row is kept and every disagreement is reported, never overwritten silently.
 *
 * Inputs are opened read-only and checked (`PRAGMA quick_check`, a judge cache table) before
 * anything is written; the output is built beside its target and renamed into place only when
 * complete, so a failure leaves no output and every input as it was.
 */
import { existsSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BadInputError, UsageError } from '../errors.js';
import { sqliteError } from '../store/sqlite.js';
import { JudgeCache } from './cache.js';
import type { CachedAnswer } from './cache-rows.js';

interface CacheConflict {
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

/** Open an input read-only and check it whole; throws bad input naming the file. */
function openChecked(file: string): JudgeCache {
  const c = new JudgeCache(file, { readOnly: true });
  try {
    const problem = c.db.quickCheck();
    if (problem) throw new BadInputError(`is damaged (SQLite quick_check: ${problem})`, { file });
    return c;
  } catch (e) {
    c.close();
    throw sqliteError(e, file);
  }
}

const removeDatabase = (file: string) => {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
};

export function mergeJudgeCaches(inputs: readonly string[], out: string): CacheMergeReport {
  if (inputs.length === 0) throw new UsageError('give the caches to merge');
  if (existsSync(out)) throw new UsageError(`--out ${out} exists: merge into a new file`);
  for (const f of inputs) if (!existsSync(f)) throw new BadInputError('no such cache file', { file: f });
  const real = new Set<string>();
  for (const f of inputs) {
    const r = realpathSync(f);
    if (real.has(r)) throw new UsageError(`${f} is given twice`);
    real.add(r);
  }
  // every input is checked before anything is written
  for (const f of inputs) openChecked(f).close();

  const target = resolve(out);
  const partial = join(dirname(target), `.${basename(target)}.partial-${process.pid}`);
  removeDatabase(partial);
  const from = new Map<string, string>();
  const report: CacheMergeReport = { inputs: [], rows: 0, shared: 0, conflicts: [] };
  let done = false;
  try {
    const merged = new JudgeCache(partial);
    try {
      for (const file of inputs) {
        const src = openChecked(file);
        let n = 0;
        try {
          merged.db.transaction(() => {
            for (const r of src.rows()) {
              n++;
              const have = merged.get(r.key);
              if (!have) {
                merged.put(r.key, { backend: r.backend, model: r.model, protocol: r.protocol }, r);
                from.set(r.key, file);
              } else if (sameAnswer(have, r)) report.shared++;
              else report.conflicts.push({ key: r.key, kept: from.get(r.key)!, other: file });
            }
          });
        } finally {
          src.close();
        }
        report.inputs.push({ file, rows: n });
      }
      report.rows = merged.stats().rows;
    } finally {
      // closing checkpoints the WAL into the file, so the renamed file is whole on its own
      merged.close();
    }
    renameSync(partial, target);
    done = true;
  } finally {
    if (!done) removeDatabase(partial);
  }
  return report;
}
