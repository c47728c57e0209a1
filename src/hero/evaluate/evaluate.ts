import { join } from 'node:path';
import { runPool } from '../../concurrency/pool.js';
import { BadInputError, messageOf } from '../../errors.js';
import {
  type ChainOrder,
  type DisagreementRule,
  type InsertionOutcome,
  type InsertionProtocol,
  insertIntoChain,
  listwiseQuestion,
} from '../../judge/insertion.js';
import type { ListwiseAnswerFormat } from '../../judge/listwise-answer.js';
import { pairQuestions } from '../../judge/pairwise.js';
import type { Template } from '../../judge/prompts.js';
import { CallBudgetSpent } from '../../judge/question.js';
import type { JudgeImage } from '../../judge/types.js';
import { phaseReporter } from '../../progress.js';
import { imagePath, trackFramePath } from '../dataset/layout.js';
import type { Chain } from '../dataset/schemas.js';
import { emptyStillsReason } from '../empty-stills.js';
import { heroInstructions } from '../prompt.js';
import { filmTemplate, filmText, type ReaderPrompt, resolveReaderPrompt } from '../reader/prompt.js';
import type { FilmScore, HeroSummary, InsertionRecord, MethodSummary } from '../results.js';
import { type ScoreContext, STILL_ROW, scoreInsertions } from '../score.js';
import { listStills } from '../stills-folder.js';
import { insertionVerdicts } from '../verdicts.js';
import { type ValidatedInputs, validateEvaluation } from './inputs.js';
import type { EvaluateOptions, StillsRule } from './options.js';

export type { MethodSummary };

/** What `--dry-run` counts (`planEvaluation`): the questions the plan needs, and those the cache holds. */
export interface EvaluationPlan {
  insertions: number;
  questions: number;
  cached: number;
  /** The binary protocol's count is a bound (its questions depend on the answers). */
  upper_bound: boolean;
}

export interface EvaluateResult {
  summary: HeroSummary;
  perFilm: FilmScore[];
  insertions: InsertionRecord[];
  complete: boolean;
  /**
   * The films of the run (with chains, of --movies; sorted) and those this shard scored; `every`:
   * every film with chains (what a merge of --movies folders must cover together).
   */
  films: { all: string[]; selected: string[]; every?: string[] };
  /** The wording the reader was asked in (reader-prompt.ts). */
  readerPrompt?: ReaderPrompt;
}

interface Task {
  method: string;
  movie_id: string;
  frame: number | string;
  rank: number;
  chain: Chain;
  candidate: () => Promise<JudgeImage>;
}

/** Step 2: every submitted frame (and with `includeStills` every still) into every chain of its film. */
function planInsertions(
  v: ValidatedInputs,
  o: Pick<EvaluateOptions, 'data' | 'track' | 'encoder' | 'includeStills' | 'shard' | 'stills' | 'stillsDir'>,
): Task[] {
  const tasks: Task[] = [];
  for (const [method, sel] of v.submissions)
    for (const film of v.films)
      for (const f of sel.get(film) ?? [])
        for (const c of v.chains.get(film)!.chains)
          tasks.push({
            method,
            movie_id: film,
            frame: f.frame_idx,
            rank: f.rank,
            chain: c,
            candidate: () => o.encoder.fromFile(trackFramePath(o.track, film, f.frame_idx)),
          });
  if (o.includeStills)
    for (const film of v.films) {
      const chains = v.chains.get(film)!.chains;
      const surviving = new Set(
        chains.flatMap((c) => c.images.filter((i) => i.source === 'still').map((i) => i.image_id)),
      );
      // `all`: the film's stills the floor deleted from every chain too (read from the stills folder)
      const folder = (o.stills ?? 'all') === 'all' && o.stillsDir ? listStills(o.stillsDir, film) : new Map();
      const stills = [...new Set([...surviving, ...folder.keys()])].sort();
      const file = (still: string) =>
        surviving.has(still) ? imagePath(o.data, film, still) : join(o.stillsDir!, film, folder.get(still)!);
      for (const c of chains)
        for (const [k, still] of stills.filter((s) => !c.order.includes(s)).entries())
          tasks.push({
            method: STILL_ROW,
            movie_id: film,
            frame: still,
            rank: k + 1,
            chain: c,
            candidate: () => o.encoder.fromFile(file(still)),
          });
    }
  // a shard may hold no film with a submission; a whole run of nothing is no result
  if (tasks.length === 0 && !o.shard)
    throw new BadInputError(
      'nothing to score: no method submits a frame for a film that has chains (an evaluation of nothing is not a result)',
    );
  return tasks;
}

interface RunContext {
  o: EvaluateOptions;
  protocol: InsertionProtocol;
  settings: { bothOrders: boolean; disagreement: DisagreementRule };
  instructions: (film: string) => string;
  /** The film's listwise template (undefined: kfbench's own wording). */
  template: (film: string) => Template | undefined;
  /** How the template's reply says where the candidate goes (undefined: kfbench's own). */
  answer: ListwiseAnswerFormat | undefined;
  chainImages: (film: string, c: Chain) => Promise<JudgeImage[]>;
}

/** `--dry-run`: the questions the plan needs and how many the cache already holds (nothing is asked). */
async function countQuestions(tasks: readonly Task[], x: RunContext): Promise<EvaluationPlan> {
  let questions = 0;
  let cached = 0;
  for (const t of tasks) {
    if (x.protocol === 'binary') {
      questions += 2 * Math.ceil(Math.log2(t.chain.order.length + 1));
      continue;
    }
    const cand = await t.candidate();
    const chain = await x.chainImages(t.movie_id, t.chain);
    const orders: ChainOrder[] = x.settings.bothOrders ? ['best-first', 'worst-first'] : ['best-first'];
    const qs =
      x.protocol === 'listwise'
        ? orders.map((order) =>
            listwiseQuestion(
              cand,
              chain,
              x.instructions(t.movie_id),
              order,
              x.template(t.movie_id),
              x.answer,
            ),
          )
        : chain.flatMap((c) => [...pairQuestions(cand, c, x.instructions(t.movie_id))]);
    questions += qs.length;
    cached += qs.filter((q) => x.o.judge.isCached(q)).length;
  }
  return { insertions: tasks.length, questions, cached, upper_bound: x.protocol === 'binary' };
}

/** Step 3: the insertions, in one pool, stopping at the call budget or an abort. */
async function runInsertions(
  tasks: readonly Task[],
  x: RunContext,
): Promise<{ insertions: InsertionRecord[]; complete: boolean }> {
  const { o } = x;
  const progress = phaseReporter(o.onProgress, 'evaluate', 'insertions');
  progress.start(tasks.length, `${x.protocol}, ${o.judge.name}`);
  // the budget is checked by the judge before each call starts (in flight ones count): a hard ceiling
  // at any concurrency; insertions that need no new call (cache hits) still complete past it
  const limits = { maxCalls: o.maxCalls };
  let cutShort = 0;
  const pool = await runPool(
    tasks,
    async (t, _i, signal): Promise<InsertionRecord | undefined> => {
      const item = `${t.method} ${t.movie_id}#${t.frame} in ${t.chain.chain_id}`;
      const judge = o.judge.withSignal(signal, limits);
      const chain = await x.chainImages(t.movie_id, t.chain);
      let out: InsertionOutcome;
      try {
        out = await insertIntoChain(
          judge,
          await t.candidate(),
          chain,
          x.instructions(t.movie_id),
          x.protocol,
          { ...x.settings, template: x.template(t.movie_id), answer: x.answer },
        );
      } catch (e) {
        if (e instanceof CallBudgetSpent) {
          cutShort++;
          return undefined;
        }
        progress.failed(item, messageOf(e));
        throw e;
      }
      const stillIdx = t.chain.order.findIndex(
        (id) => t.chain.images.find((im) => im.image_id === id)?.source === 'still',
      );
      if (out.calls === 0 && out.cached > 0) progress.cached(item);
      else progress.done(item);
      return {
        method: t.method,
        movie_id: t.movie_id,
        frame: t.frame,
        rank: t.rank,
        chain_id: t.chain.chain_id,
        position: out.position,
        chain_length: chain.length,
        s: out.position / chain.length,
        above_still: stillIdx >= 0 && out.above[stillIdx] === true,
        unresolved: out.unresolved,
        calls: out.calls,
        cached: out.cached,
        questions: 2 * out.comparisons.length + (out.listwise?.answers.length ?? 0),
        checks: out.checks,
        disagreed: out.disagreed,
        ...(out.listwise ? { answers: out.listwise.answers.map((a) => a.position) } : {}),
        verdicts: insertionVerdicts(out, t.chain.order),
      };
    },
    {
      // twice the calls allowed in flight (the judge's own limit holds those): an insertion encodes its
      // images while others wait on the judge
      concurrency: 2 * (o.concurrency ?? 8),
      signal: o.signal,
    },
  );
  progress.finish();
  const insertions = pool.results.filter((r): r is InsertionRecord => !!r);
  return { insertions, complete: cutShort === 0 && insertions.length === tasks.length };
}

/** The inputs checked, the insertions planned and what asking them reads: shared by the plan and the run. */
async function prepare(o: EvaluateOptions) {
  const protocol = o.protocol ?? 'listwise';
  const bothOrders = protocol === 'listwise' && !!o.bothOrders;
  const settings = { bothOrders, disagreement: o.disagreement ?? 'error' };
  const v = await validateEvaluation(o);
  const tasks = planInsertions(v, o);
  const film = (id: string) => filmText(id, v.ds.movies.get(id), v.rubrics.get(id));
  const readerPrompt = resolveReaderPrompt(
    o.data,
    () =>
      [...v.chains].map(([id, f]) => ({ text: film(id), images: new Set(f.chains.flatMap((c) => c.order)) })),
    o.promptTemplate,
  );
  const templates = new Map<string, Template | undefined>();
  const x: RunContext = {
    o,
    protocol,
    settings,
    instructions: (film) =>
      heroInstructions(v.ds.movies.get(film) ?? { title: film, year: 0 }, v.rubrics.get(film)),
    answer: readerPrompt.answer,
    template: (id) => {
      if (!templates.has(id)) templates.set(id, filmTemplate(readerPrompt, film(id)));
      return templates.get(id);
    },
    chainImages: (film, c) =>
      Promise.all(c.order.map((id) => o.encoder.fromFile(imagePath(o.data, film, id)))),
  };
  return { v, tasks, x, readerPrompt, protocol, bothOrders };
}

/** `hero evaluate --dry-run`: the questions the evaluation needs and how many the cache holds (nothing is asked). */
export async function planEvaluation(o: EvaluateOptions): Promise<EvaluationPlan> {
  const p = await prepare(o);
  return countQuestions(p.tasks, p.x);
}

export async function evaluate(o: EvaluateOptions): Promise<EvaluateResult> {
  const { v, tasks, x, readerPrompt, protocol, bothOrders } = await prepare(o);
  const methods = [...v.submissions.keys(), ...(o.includeStills ? [STILL_ROW] : [])];
  const films = { all: v.allFilms, selected: v.films, every: v.everyFilm };
  const run = await runInsertions(tasks, x);
  const scored = scoreInsertions(run.insertions, {
    ...context(o, protocol, bothOrders, v),
    methods,
    complete: run.complete,
  });
  // an empty stills row says why; the surviving-stills caveat is about a row that has insertions
  const stillsWarning =
    emptyStillsReason(o, v.films, (f) => v.chains.get(f)?.chains ?? [], tasks) ??
    survivingStillsWarning(!!o.includeStills, o.stills, o.stillsDir);
  if (stillsWarning) scored.summary.warnings.push(stillsWarning);
  for (const what of readerPrompt.not_placed)
    scored.summary.warnings.push(`reader prompt: ${readerPrompt.file} — not placed: ${what}`);
  if (!run.complete)
    scored.summary.warnings.push(
      `stopped at the call budget after ${run.insertions.length} of ${tasks.length} insertions; run again to resume from the cache`,
    );
  return { ...scored, insertions: run.insertions, complete: run.complete, films, readerPrompt };
}

/** The warning of a stills row that could score only the surviving stills (also said by a merge of shards). */
export function survivingStillsWarning(
  includeStills: boolean,
  stills: StillsRule | undefined,
  stillsDir: string | null | undefined,
): string | undefined {
  if (!includeStills || (stills ?? 'all') !== 'all' || stillsDir) return undefined;
  return 'the stills row scores only the stills that survived in some chain: the stills the still floor deleted are not in the dataset (pass --stills-dir, the publicity stills folder hero build read, or say --stills surviving)';
}

/** What scoring needs to know of the run besides its insertions. */
function context(
  o: EvaluateOptions,
  protocol: InsertionProtocol,
  bothOrders: boolean,
  v: ValidatedInputs,
): ScoreContext {
  return {
    methods: [],
    films: v.films,
    complete: false,
    reader: o.judge.name,
    protocol,
    bothOrders,
    disagreement: o.disagreement ?? 'error',
    official: v.official,
    bootstrapB: o.bootstrapB ?? 1000,
    seed: o.seed ?? 0,
  };
}
