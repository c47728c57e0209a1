/** The viewer's Compass view (data.ts): the cases given with --cases and their results folders. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { loadCases } from '../compass/cases/cases.js';
import { VideoEvaluation } from '../compass/schemas/evaluation.js';
import { Leaderboard } from '../compass/schemas/leaderboard.js';
import { Checklist } from '../compass/schemas/quality.js';
import { ResponseRow, ResponseSummary } from '../compass/schemas/response.js';
import { readJsonFile } from '../store/jsonl.js';

import { labels, lenientRows, mismatch, msg } from './read-results.js';
import {
  type CompassResults,
  type CompassView,
  checklistKey,
  type Problem,
  type ViewerInputs,
  videoKey,
} from './view-types.js';

async function loadCompassResults(
  dir: string,
  label: string,
  problems: Problem[],
): Promise<CompassResults | undefined> {
  if (!existsSync(dir)) {
    problems.push({ area: 'compass', message: `results folder ${dir}: missing` });
    return undefined;
  }
  const r: CompassResults = {
    dir,
    label,
    summary: undefined,
    leaderboard: undefined,
    responses: new Map(),
    evaluations: new Map(),
    checklists: new Map(),
  };
  const rf = join(dir, 'response.jsonl');
  if (!existsSync(rf)) {
    problems.push({
      area: 'compass',
      message: `results folder ${dir}: no response.jsonl (not a \`compass score\` or \`compass evaluate\` output?)`,
    });
    return undefined;
  }
  for (const row of await lenientRows(rf, ResponseRow, 'compass', problems))
    r.responses.set(videoKey(row.case_id, row.model, row.prompt_mode), row);
  const json = async <S extends z.ZodType>(name: string, schema: S): Promise<z.output<S> | undefined> => {
    if (!existsSync(join(dir, name))) return undefined;
    try {
      return await readJsonFile(join(dir, name), schema);
    } catch (e) {
      problems.push({ area: 'compass', message: `${msg(e)} (not shown)` });
      return undefined;
    }
  };
  r.summary = await json('summary.json', ResponseSummary);
  r.leaderboard = await json('leaderboard.json', Leaderboard);
  const ef = join(dir, 'evaluation.jsonl');
  if (existsSync(ef))
    for (const row of await lenientRows(ef, VideoEvaluation, 'compass', problems)) {
      const k = videoKey(row.case_id, row.model, row.prompt_mode);
      if (!r.evaluations.has(k) || row.run === 0) r.evaluations.set(k, row);
    }
  const cf = join(dir, 'checklists.jsonl');
  if (existsSync(cf))
    for (const row of await lenientRows(cf, Checklist, 'compass', problems))
      r.checklists.set(checklistKey(row.case_id, row.prompt_mode, row.metric), row);
  return r;
}

export async function loadCompass(i: ViewerInputs, problems: Problem[]): Promise<CompassView | undefined> {
  if (!i.cases) {
    if (i.compassResults?.length || i.videos)
      problems.push({
        area: 'compass',
        message: 'Compass results or videos were given without --cases: nothing to match them to',
      });
    return undefined;
  }
  const casesFile = resolve(i.cases);
  const view: CompassView = {
    casesFile,
    casesDir: dirname(casesFile),
    cases: [],
    videos: i.videos ? resolve(i.videos) : undefined,
    results: [],
    models: [],
  };
  try {
    view.cases = await loadCases(casesFile);
  } catch (e) {
    problems.push({ area: 'compass', message: msg(e) });
  }
  if (!i.videos) problems.push({ area: 'compass', message: 'no --videos: case pages show no video' });
  else if (!existsSync(i.videos))
    problems.push({ area: 'compass', message: `--videos ${view.videos}: missing` });
  const ids = new Set(view.cases.map((c) => c.case_id));
  const dirs = (i.compassResults ?? []).map((d) => resolve(d));
  const names = labels(dirs);
  for (const [k, dir] of dirs.entries()) {
    const r = await loadCompassResults(dir, names[k]!, problems);
    if (!r) continue;
    const seen = [...new Set([...r.responses.values()].map((x) => x.case_id))];
    mismatch(problems, 'compass', dir, seen, (c) => ids.has(c), {
      set: 'case set',
      items: 'cases',
      where: `is in ${casesFile}`,
    });
    view.results.push(r);
  }
  if (!dirs.length)
    problems.push({
      area: 'compass',
      message: 'no --compass-results folder: case pages show keyframes only',
    });
  view.models = [
    ...new Set(view.results.flatMap((r) => [...r.responses.values()].map((x) => x.model))),
  ].sort();
  return view;
}
