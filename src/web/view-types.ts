/** What the viewer holds once loaded (data.ts loads it): the HeroFrame and Compass views, their problems, and the keys its maps use. */
import type { LoadedCase, PromptMode } from '../compass/cases/cases.js';
import type { VideoEvaluation } from '../compass/schemas/evaluation.js';
import type { Leaderboard } from '../compass/schemas/leaderboard.js';
import type { Checklist } from '../compass/schemas/quality.js';
import type { ResponseRow, ResponseSummary } from '../compass/schemas/response.js';
import type { Layout } from '../hero/dataset/layout-map.js';
import type { FilmChains, FilmRubric, RubricProposal } from '../hero/dataset/schemas.js';
import type { InsertionRecord, MethodSummary } from '../hero/results.js';

export interface Problem {
  area: 'hero' | 'compass';
  message: string;
}

export interface HeroResults {
  dir: string;
  label: string;
  reader: string;
  protocol: string;
  methods: MethodSummary[];
  official: MethodSummary[];
  warnings: string[];
  /** By film, then in file order (results written before verdicts were kept have none). */
  insertions: Map<string, InsertionRecord[]>;
}

export type ProposalRow = RubricProposal;

export interface HeroView {
  data: string;
  track: string | undefined;
  movies: Map<string, { title: string; year: number }>;
  chains: Map<string, FilmChains>;
  rubrics: Map<string, FilmRubric>;
  proposals: Map<string, ProposalRow[]>;
  results: HeroResults[];
}

export interface CompassResults {
  dir: string;
  label: string;
  summary: ResponseSummary | undefined;
  leaderboard: Leaderboard | undefined;
  /** response.jsonl rows by `case_id|model|prompt_mode`. */
  responses: Map<string, ResponseRow>;
  /** evaluation.jsonl rows (first run) by `case_id|model|prompt_mode`. */
  evaluations: Map<string, VideoEvaluation>;
  /** checklists.jsonl by `case_id|prompt_mode|metric`. */
  checklists: Map<string, Checklist>;
}

export interface CompassView {
  casesFile: string;
  casesDir: string;
  cases: LoadedCase[];
  videos: string | undefined;
  results: CompassResults[];
  models: string[];
}

export interface ViewerData {
  hero: HeroView | undefined;
  compass: CompassView | undefined;
  problems: Problem[];
}

export interface ViewerInputs {
  data?: string | undefined;
  /** The layout map of the HeroFrame files at `data` (default: the built-in one). */
  layout?: Layout | undefined;
  track?: string | undefined;
  results?: string[] | undefined;
  cases?: string | undefined;
  videos?: string | undefined;
  compassResults?: string[] | undefined;
}

export const videoKey = (caseId: string, model: string, mode: PromptMode | string) =>
  `${caseId}|${model}|${mode}`;
export const checklistKey = (caseId: string, mode: PromptMode | string, metric: string) =>
  `${caseId}|${mode}|${metric}`;

/** Whether any Compass results folder scored this model's video of a case in a mode. */
export function hasVideo(
  view: CompassView,
  caseId: string,
  model: string,
  mode: PromptMode | string,
): boolean {
  return view.results.some((r) => r.responses.has(videoKey(caseId, model, mode)));
}
