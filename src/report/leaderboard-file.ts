/**
 * `kfbench compass report` as one call: the leaderboard of a `compass evaluate` folder, read
 * through its schema, ranked by the table asked for (`--rank-by`), and rendered as text, JSON, CSV, Markdown or HTML — written to a file when
 * one is named (atomically), else returned for the caller to print.
 */
import { join } from 'node:path';
import { type RankBy, rerank } from '../compass/overall/leaderboard.js';
import { Leaderboard } from '../compass/schemas/leaderboard.js';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { readJsonFile } from '../store/jsonl.js';
import { leaderboardCsv, leaderboardHtml, leaderboardMarkdown, leaderboardText } from './compass.js';

const RENDER: Record<string, (l: Leaderboard) => string> = {
  text: (l) => `${leaderboardText(l)}\n`,
  json: (l) => `${JSON.stringify(l, null, 2)}\n`,
  csv: leaderboardCsv,
  md: leaderboardMarkdown,
  html: leaderboardHtml,
};

/** The rendered report; written to `out` when given (and then also returned). */
export async function compassReport(o: {
  eval: string;
  format: string;
  out?: string | undefined;
  /** Rank by this table (the folder's leaderboard.json holds both when audio was judged). */
  rankBy?: RankBy | undefined;
}): Promise<string> {
  const render = RENDER[o.format];
  if (!render) throw new UsageError(`--format takes text, json, csv, md or html, got "${o.format}"`);
  const read = await readJsonFile(join(o.eval, 'leaderboard.json'), Leaderboard);
  const board = o.rankBy ? rerank(read, o.rankBy) : read;
  const text = render(board);
  if (o.out) await writeFileAtomic(o.out, text);
  return text;
}
