/**
 * The contract check: every file kfbench wrote under a folder is parsed with its one schema and
 * written back, and must come out as it went in — so a field the writer adds without declaring it
 * (a strict schema drops it), a NaN (written as null where the type says number) or a file with no
 * schema at all fails. Which schema owns which file is stated here once, by path under the folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { z } from 'zod';
import { EvaluationRunFile, VideoEvaluation } from '../../src/compass/schemas/evaluation.js';
import { Leaderboard } from '../../src/compass/schemas/leaderboard.js';
import { Checklist } from '../../src/compass/schemas/quality.js';
import { ResponseRow, ResponseRunFile, ResponseSummary } from '../../src/compass/schemas/response.js';
import {
  BaselineRow,
  BuildReport,
  FilmChains,
  FilmRubric,
  ImageHash,
  RubricProposal,
  Selection,
} from '../../src/hero/dataset/schemas.js';
import { HeroRun, HeroSummary, InsertionRecord } from '../../src/hero/results.js';
import { ReaderFile } from '../../src/judge/local.js';
import { canonicalJson } from '../../src/store/canonical.js';
import { OutputsRecord, ShardRecord } from '../../src/store/shards.js';

export interface Contract {
  /** The file's path relative to the checked folder (`/` separators). */
  path: RegExp;
  schema: z.ZodType;
}

/** The HeroFrame outputs: an evaluation folder, a dataset root `hero build` wrote into, selections, a reader. */
export const HERO_CONTRACTS: Contract[] = [
  { path: /(^|\/)summary\.json$/, schema: HeroSummary },
  { path: /(^|\/)run\.json$/, schema: HeroRun },
  { path: /(^|\/)insertions\.jsonl$/, schema: InsertionRecord },
  { path: /(^|\/)data\/chains\.jsonl$/, schema: FilmChains },
  { path: /(^|\/)data\/rubrics\.jsonl$/, schema: FilmRubric },
  { path: /(^|\/)images\/image_sha256\.jsonl$/, schema: ImageHash },
  { path: /(^|\/)stats\/build_report\.json$/, schema: BuildReport },
  { path: /(^|\/)stats\/rubric_proposals\.jsonl$/, schema: RubricProposal },
  { path: /(^|\/)eval\/baselines\.jsonl$/, schema: BaselineRow },
  { path: /(^|\/)selections\/[^/]+\.jsonl$/, schema: Selection },
  { path: /(^|\/)reader\.json$/, schema: ReaderFile },
  { path: /(^|\/)settings\.json$/, schema: ShardRecord },
  { path: /(^|\/)outputs\.json$/, schema: OutputsRecord },
];

/** A `compass score --out` folder. */
export const COMPASS_SCORE_CONTRACTS: Contract[] = [
  { path: /(^|\/)response\.jsonl$/, schema: ResponseRow },
  { path: /(^|\/)summary\.json$/, schema: ResponseSummary },
  { path: /(^|\/)run\.json$/, schema: ResponseRunFile },
  { path: /(^|\/)settings\.json$/, schema: ShardRecord },
  { path: /(^|\/)outputs\.json$/, schema: OutputsRecord },
];

/** A `compass evaluate --out` folder: the score files, its own run.json and the quality files. */
export const COMPASS_EVALUATE_CONTRACTS: Contract[] = [
  { path: /(^|\/)run\.json$/, schema: EvaluationRunFile },
  ...COMPASS_SCORE_CONTRACTS.filter((c) => c.schema !== ResponseRunFile),
  { path: /(^|\/)checklists\.jsonl$/, schema: Checklist },
  { path: /(^|\/)evaluation\.jsonl$/, schema: VideoEvaluation },
  { path: /(^|\/)leaderboard\.json$/, schema: Leaderboard },
];

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.jsonl?$/.test(name)) out.push(p);
  }
  return out;
}

/**
 * Checks the JSON and JSON Lines files under `dir` whose relative path matches `scope`: each must
 * have a contract and round-trip through its schema unchanged. Returns the files checked; throws
 * with every problem found (file:line and what differs).
 */
export function checkContracts(dir: string, contracts: Contract[], scope: RegExp = /./): string[] {
  const checked: string[] = [];
  const problems: string[] = [];
  for (const file of files(dir)) {
    const rel = relative(dir, file).split('\\').join('/');
    if (!scope.test(rel)) continue;
    const c = contracts.find((x) => x.path.test(rel));
    if (!c) {
      problems.push(`${rel}: no schema owns this file`);
      continue;
    }
    checked.push(rel);
    const text = readFileSync(file, 'utf8');
    const rows = file.endsWith('.jsonl')
      ? text
          .split('\n')
          .map((l, i) => ({ line: i + 1, l }))
          .filter((x) => x.l.trim())
      : [{ line: 1, l: text }];
    for (const { line, l } of rows) {
      const json: unknown = JSON.parse(l);
      const r = c.schema.safeParse(json);
      if (!r.success) {
        problems.push(`${rel}:${line}: ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`);
        continue;
      }
      const back = canonicalJson(r.data);
      if (back !== canonicalJson(json))
        problems.push(
          `${rel}:${line}: does not round-trip (a field the schema does not declare?)\n  ${l.slice(0, 300)}\n  ${back.slice(0, 300)}`,
        );
    }
  }
  if (problems.length) throw new Error(`contract check of ${dir}:\n${problems.join('\n')}`);
  return checked;
}
