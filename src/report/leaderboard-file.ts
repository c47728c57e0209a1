/**
 * `kfbench compass report` as one call: the leaderboard of a `compass evaluate` folder, read
 * through its schema and rendered as text, JSON, CSV, Markdown or HTML — written to a file when
 * one is named (atomically), else returned for the caller to print.
 */
import { join } from 'node:path';
import { Leaderboard } from '../compass/results.js';
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
}): Promise<string> {
  const board = await readJsonFile(join(o.eval, 'leaderboard.json'), Leaderboard);
  const render = RENDER[o.format];
  if (!render) throw new UsageError(`--format takes text, json, csv, md or html, got "${o.format}"`);
  const text = render(board);
  if (o.out) await writeFileAtomic(o.out, text);
  return text;
}
