/**
 * `hero evaluate` (SPEC §2.4): every submitted frame is inserted into every chain of its film, and
 * s(F, C) = (number of images of C that F was placed above) / |C|. For a method: S_f = mean of s over
 * its frames and the film's chains; S = mean of S_f over films; S@k uses frames of rank ≤ k; the
 * top-1 rate (s = 1) and the beat-the-still rate (F above the chain's publicity still) are averaged
 * per film first, like S. The default protocol is the published one, `listwise`: one positional
 * question per insertion; `--both-orders` asks it again with the chain shown worst first and
 * scores a disagreement by `disagreement` (see judge/insertion.ts). Under `pairwise` "above the
 * still" is the direct confident comparison; under `listwise`/`binary` F is above the bottom
 * `position` images. Every summary states the protocol, the questions asked per insertion and the
 * disagreement rate of the self-consistency checks the protocol makes.
 * Inputs are validated before any judge call; `--dry-run` spends nothing; `--max-calls` stops
 * launching insertions at a budget (in-flight ones finish) and the run is resumable from the cache.
 */
import { existsSync } from 'node:fs';
import { runPool } from '../concurrency/pool.js';
import { BadInputError } from '../errors.js';
import type { ImageEncoder } from '../judge/images.js';
import {
  type ChainOrder,
  type DisagreementRule,
  type InsertionOutcome,
  type InsertionProtocol,
  insertIntoChain,
  listwiseQuestion,
} from '../judge/insertion.js';
import type { Judge } from '../judge/judge.js';
import { pairQuestions } from '../judge/pairwise.js';
import type { JudgeImage } from '../judge/types.js';
import { bootstrap, mean, pairedBootstrap } from '../stats/bootstrap.js';
import { readJsonlAll } from '../store/jsonl.js';
import { datasetPaths, imagePath, trackFramePath } from './dataset/layout.js';
import { loadChains, loadCore, loadRubrics } from './dataset/load.js';
import { BaselineRow, type Chain } from './dataset/schemas.js';
import { checkSelections } from './dataset/selections.js';
import { heroInstructions } from './prompt.js';
import { type Shard, selectFilms } from './track/shard.js';
import { type InsertionVerdict, insertionVerdicts } from './verdicts.js';

export interface SubmittedMethod {
  method: string;
  /** Where its frames come from: a selections file, or the official rows of baselines.jsonl. */
  file: string;
}

export interface EvaluateOptions {
  data: string;
  track: string;
  methods: SubmittedMethod[];
  judge: Judge;
  encoder: ImageEncoder;
  protocol?: InsertionProtocol;
  /** Listwise: ask each insertion a second time with the chain shown worst first. */
  bothOrders?: boolean;
  /** Listwise with both orders: how a disagreement is scored (default `error`). */
  disagreement?: DisagreementRule;
  includeStills?: boolean;
  rescoreOfficial?: boolean;
  missing?: 'error' | 'zero';
  dryRun?: boolean;
  maxCalls?: number | undefined;
  seed?: number | string;
  bootstrapB?: number;
  concurrency?: number;
  /** Only these films (`--movies`), and of them one shard (`--shard k/n`, see store/shards.ts). */
  movies?: string[] | undefined;
  shard?: Shard | undefined;
  /** Ctrl-C: no insertion starts and no judge call is made after it aborts. */
  signal?: AbortSignal | undefined;
  onEvent?: (
    e: { type: 'start'; insertions: number } | { type: 'insertion'; done: number; total: number },
  ) => void;
}

export interface InsertionRecord {
  method: string;
  movie_id: string;
  /** Track frame for a method, image id for the stills row. */
  frame: number | string;
  rank: number;
  chain_id: string;
  position: number;
  chain_length: number;
  s: number;
  above_still: boolean;
  unresolved: number;
  calls: number;
  cached: number;
  /** Questions this insertion needed (answered over the network or from the cache). */
  questions: number;
  /** Self-consistency checks made and failed (see InsertionOutcome). */
  checks: number;
  disagreed: number;
  /** Listwise: the position answered in each order shown (null = unresolved). */
  answers?: (number | null)[];
  /** The judge's verdicts behind the position (see verdicts.ts). */
  verdicts: InsertionVerdict[];
}

export interface FilmScore {
  method: string;
  movie_id: string;
  S: number;
  S_at_k: Record<string, number>;
  top1_rate: number;
  beat_still_rate: number;
  insertions: number;
  unresolved: number;
}

export interface MethodSummary {
  method: string;
  reader: string;
  S: number;
  S_at_k: Record<string, number>;
  top1_rate: number;
  beat_still_rate: number;
  ci: { S: [number, number] };
  films: number;
  insertions: number;
  unresolved: number;
  official?: boolean;
}

export interface EvaluateResult {
  summary: {
    reader: string;
    protocol: InsertionProtocol;
    /** Listwise asked in both orders; the rule scoring a disagreement (null otherwise). */
    both_orders: boolean;
    disagreement_rule: DisagreementRule | null;
    /** Questions asked for the scored insertions (network or cache) and per insertion. */
    questions: number;
    questions_per_insertion: number;
    /**
     * Self-consistency checks: pairwise/binary, each comparison's two placements; listwise with
     * both orders, each insertion's two answers. rate = disagreed / checks, null without checks.
     */
    disagreement: { checks: number; disagreed: number; rate: number | null };
    methods: MethodSummary[];
    official: MethodSummary[];
    paired: { a: string; b: string; diff: number; ci: [number, number]; p: number }[];
    warnings: string[];
  };
  perFilm: FilmScore[];
  insertions: InsertionRecord[];
  complete: boolean;
  /** The films of the run (with chains, of --movies; sorted) and those this shard scored. */
  films: { all: string[]; selected: string[] };
  dryRun?: { insertions: number; questions: number; cached: number; upper_bound: boolean };
}

interface Task {
  method: string;
  movie_id: string;
  frame: number | string;
  rank: number;
  chain: Chain;
  candidate: () => Promise<JudgeImage>;
}

const STILL_ROW = 'stills';

export async function evaluate(o: EvaluateOptions): Promise<EvaluateResult> {
  const protocol = o.protocol ?? 'listwise';
  const bothOrders = protocol === 'listwise' && !!o.bothOrders;
  const settings = { bothOrders, disagreement: o.disagreement ?? 'error' };
  const consistency = (rs: InsertionRecord[]) => {
    const questions = rs.reduce((a, r) => a + r.questions, 0);
    const checks = rs.reduce((a, r) => a + r.checks, 0);
    const disagreed = rs.reduce((a, r) => a + r.disagreed, 0);
    return {
      both_orders: bothOrders,
      disagreement_rule: bothOrders ? settings.disagreement : null,
      questions,
      questions_per_insertion: rs.length ? questions / rs.length : 0,
      disagreement: { checks, disagreed, rate: checks ? disagreed / checks : null },
    };
  };
  const ds = await loadCore(o.data);
  const chains = await loadChains(o.data);
  const rubrics = await loadRubrics(o.data);
  const warnings: string[] = [];

  // 1. validate everything before spending
  const submissions = new Map<string, Map<string, { frame_idx: number; rank: number }[]>>();
  for (const m of o.methods) {
    const r = await checkSelections(m.file, ds.timelines);
    if (r.problems.length)
      throw new BadInputError(
        `${r.problems[0]!.replace(`${m.file}:`, 'line ')}${r.problems.length > 1 ? ` (and ${r.problems.length - 1} more problems)` : ''}`,
        { file: m.file },
      );
    submissions.set(m.method, r.selections);
  }
  const official = await officialRows(o.data);
  if (o.rescoreOfficial) {
    for (const value of official) {
      const sel = new Map<string, { frame_idx: number; rank: number }[]>();
      for (const s of value.selections ?? [])
        sel.set(
          s.movie_id,
          [...s.frames].sort((a, b) => a.rank - b.rank),
        );
      submissions.set(`${value.method} (rescored)`, sel);
    }
  }
  // every film of the run (--movies) and this shard's
  const allFilms = selectFilms(chains.keys(), { movies: o.movies });
  const films = selectFilms(chains.keys(), { movies: o.movies, shard: o.shard });
  const filmSet = new Set(films);
  for (const [method, sel] of submissions) {
    for (const [film, frames] of sel)
      for (const f of filmSet.has(film) ? frames : []) {
        const file = trackFramePath(o.track, film, f.frame_idx);
        if (!existsSync(file))
          throw new BadInputError(
            `track frame ${f.frame_idx} of ${film} (method ${method}) is missing: rebuild the track`,
            { file },
          );
      }
    const missingFilms = films.filter((f) => !sel.has(f));
    if (missingFilms.length && (o.missing ?? 'error') === 'error') {
      throw new BadInputError(
        `method ${method} submits nothing for ${missingFilms.length} film(s) with chains (${missingFilms.slice(0, 3).join(', ')}${missingFilms.length > 3 ? ', …' : ''}); pass --missing zero to score them 0`,
      );
    }
  }

  // 2. the insertions
  const tasks: Task[] = [];
  for (const [method, sel] of submissions)
    for (const film of films)
      for (const f of sel.get(film) ?? [])
        for (const c of chains.get(film)!.chains)
          tasks.push({
            method,
            movie_id: film,
            frame: f.frame_idx,
            rank: f.rank,
            chain: c,
            candidate: () => o.encoder.fromFile(trackFramePath(o.track, film, f.frame_idx)),
          });
  if (o.includeStills) {
    for (const film of films) {
      const stills = [
        ...new Set(
          chains
            .get(film)!
            .chains.flatMap((c) => c.images.filter((i) => i.source === 'still').map((i) => i.image_id)),
        ),
      ].sort();
      for (const c of chains.get(film)!.chains)
        for (const [k, still] of stills.filter((s) => !c.order.includes(s)).entries())
          tasks.push({
            method: STILL_ROW,
            movie_id: film,
            frame: still,
            rank: k + 1,
            chain: c,
            candidate: () => o.encoder.fromFile(imagePath(o.data, film, still)),
          });
    }
  }
  if (tasks.length === 0 && !o.shard)
    throw new BadInputError(
      'nothing to score: no method submits a frame for a film that has chains (an evaluation of nothing is not a result)',
    );
  const instructions = (film: string) =>
    heroInstructions(ds.movies.get(film) ?? { title: film, year: 0 }, rubrics.get(film));
  const chainImages = (film: string, c: Chain) =>
    Promise.all(c.order.map((id) => o.encoder.fromFile(imagePath(o.data, film, id))));

  if (o.dryRun) {
    let questions = 0;
    let cached = 0;
    for (const t of tasks) {
      if (protocol === 'binary') {
        questions += 2 * Math.ceil(Math.log2(t.chain.order.length + 1));
        continue;
      }
      const cand = await t.candidate();
      const chain = await chainImages(t.movie_id, t.chain);
      const orders: ChainOrder[] = bothOrders ? ['best-first', 'worst-first'] : ['best-first'];
      const qs =
        protocol === 'listwise'
          ? orders.map((order) => listwiseQuestion(cand, chain, instructions(t.movie_id), order))
          : chain.flatMap((c) => [...pairQuestions(cand, c, instructions(t.movie_id))]);
      questions += qs.length;
      cached += qs.filter((q) => o.judge.isCached(q)).length;
    }
    return {
      summary: {
        reader: o.judge.name,
        protocol,
        ...consistency([]),
        methods: [],
        official: [],
        paired: [],
        warnings,
      },
      perFilm: [],
      insertions: [],
      complete: false,
      films: { all: allFilms, selected: films },
      dryRun: { insertions: tasks.length, questions, cached, upper_bound: protocol === 'binary' },
    };
  }

  o.onEvent?.({ type: 'start', insertions: tasks.length });
  let done = 0;
  const budget = o.maxCalls;
  const pool = await runPool(
    tasks,
    async (t, _i, signal): Promise<InsertionRecord> => {
      const judge = o.judge.withSignal(signal);
      const chain = await chainImages(t.movie_id, t.chain);
      const out: InsertionOutcome = await insertIntoChain(
        judge,
        await t.candidate(),
        chain,
        instructions(t.movie_id),
        protocol,
        settings,
      );
      const stillIdx = t.chain.order.findIndex(
        (id) => t.chain.images.find((im) => im.image_id === id)?.source === 'still',
      );
      o.onEvent?.({ type: 'insertion', done: ++done, total: tasks.length });
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
      ...(budget !== undefined ? { canStart: () => o.judge.stats.calls < budget } : {}),
    },
  );
  const records = pool.results;
  const stopped = pool.stopped;
  const insertions = records.filter((r): r is InsertionRecord => !!r);
  const complete = !stopped && insertions.length === tasks.length;

  // 3. scores
  const methods = [...submissions.keys(), ...(o.includeStills ? [STILL_ROW] : [])];
  const scored = scoreInsertions(insertions, {
    methods,
    films,
    complete,
    reader: o.judge.name,
    protocol,
    bothOrders,
    disagreement: settings.disagreement,
    seed: o.seed ?? 0,
    bootstrapB: o.bootstrapB ?? 1000,
    official,
  });
  if (!complete)
    scored.summary.warnings.push(
      `stopped at the call budget after ${insertions.length} of ${tasks.length} insertions; run again to resume from the cache`,
    );
  return { ...scored, insertions, complete, films: { all: allFilms, selected: films } };
}

/** The official rows of eval/baselines.jsonl (none when the file is absent). */
export async function officialRows(data: string): Promise<BaselineRow[]> {
  return existsSync(datasetPaths(data).baselines)
    ? (await readJsonlAll(datasetPaths(data).baselines, BaselineRow)).map((l) => l.value)
    : [];
}

export interface ScoreContext {
  /** Method rows in output order (submitted methods, then the stills row when included). */
  methods: string[];
  /** Films in output order (sorted). */
  films: string[];
  /** Every insertion was made (films without a submission then score 0). */
  complete: boolean;
  reader: string;
  protocol: InsertionProtocol;
  bothOrders: boolean;
  disagreement: DisagreementRule;
  seed: number | string;
  bootstrapB: number;
  official: BaselineRow[];
}

/**
 * The summary and per-film scores of a set of insertions — of one run, or of shards merged (the
 * insertions of a method and film in the order they were made, methods and films in output order).
 */
export function scoreInsertions(
  insertions: readonly InsertionRecord[],
  ctx: ScoreContext,
): Pick<EvaluateResult, 'summary' | 'perFilm'> {
  const { methods, films, complete } = ctx;
  const o = { seed: ctx.seed, judge: { name: ctx.reader } };
  const warnings: string[] = [];
  const questions = insertions.reduce((a, r) => a + r.questions, 0);
  const checks = insertions.reduce((a, r) => a + r.checks, 0);
  const disagreed = insertions.reduce((a, r) => a + r.disagreed, 0);
  const perFilm: FilmScore[] = [];
  for (const method of methods) {
    for (const film of films) {
      const rs = insertions.filter((r) => r.method === method && r.movie_id === film);
      if (rs.length === 0) {
        if (method !== STILL_ROW && complete)
          perFilm.push({
            method,
            movie_id: film,
            S: 0,
            S_at_k: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
            top1_rate: 0,
            beat_still_rate: 0,
            insertions: 0,
            unresolved: 0,
          });
        continue;
      }
      const atK: Record<string, number> = {};
      for (let k = 1; k <= 5; k++) {
        const sub = rs.filter((r) => r.rank <= k);
        atK[String(k)] = sub.length
          ? mean(sub.map((r) => r.s))
          : mean(rs.filter((r) => r.rank === Math.min(...rs.map((x) => x.rank))).map((r) => r.s));
      }
      perFilm.push({
        method,
        movie_id: film,
        S: mean(rs.map((r) => r.s)),
        S_at_k: atK,
        top1_rate: mean(rs.map((r) => (r.position === r.chain_length ? 1 : 0))),
        beat_still_rate: mean(rs.map((r) => (r.above_still ? 1 : 0))),
        insertions: rs.length,
        unresolved: rs.reduce((a, r) => a + r.unresolved, 0),
      });
    }
  }
  const B = ctx.bootstrapB;
  const summaries: MethodSummary[] = methods.map((method) => {
    const fs = perFilm.filter((f) => f.method === method);
    const S_at_k: Record<string, number> = {};
    for (let k = 1; k <= 5; k++)
      S_at_k[String(k)] = fs.length ? mean(fs.map((f) => f.S_at_k[String(k)]!)) : Number.NaN;
    const boot = fs.length
      ? bootstrap(fs, (x) => mean(x.map((f) => f.S)), { B, seed: `${o.seed ?? 0}/${method}` })
      : { ci: [Number.NaN, Number.NaN] as [number, number] };
    return {
      method,
      reader: o.judge.name,
      S: fs.length ? mean(fs.map((f) => f.S)) : Number.NaN,
      S_at_k,
      top1_rate: fs.length ? mean(fs.map((f) => f.top1_rate)) : Number.NaN,
      beat_still_rate: fs.length ? mean(fs.map((f) => f.beat_still_rate)) : Number.NaN,
      ci: { S: boot.ci },
      films: fs.length,
      insertions: fs.reduce((a, f) => a + f.insertions, 0),
      unresolved: fs.reduce((a, f) => a + f.unresolved, 0),
    };
  });
  const paired: EvaluateResult['summary']['paired'] = [];
  for (let i = 0; i < methods.length; i++)
    for (let j = i + 1; j < methods.length; j++) {
      const a = perFilm.filter((f) => f.method === methods[i]);
      const b = new Map(perFilm.filter((f) => f.method === methods[j]).map((f) => [f.movie_id, f.S]));
      const common = a.filter((f) => b.has(f.movie_id));
      if (common.length < 2) continue;
      const r = pairedBootstrap(
        common.map((f) => f.S),
        common.map((f) => b.get(f.movie_id)!),
        { B, seed: `${o.seed ?? 0}/${methods[i]}/${methods[j]}` },
      );
      paired.push({ a: methods[i]!, b: methods[j]!, diff: r.estimate, ci: r.ci, p: r.p });
    }
  const official: MethodSummary[] = ctx.official.map((value) => ({
    method: value.method,
    reader: value.reader,
    S: value.S,
    S_at_k: value.S_at_k,
    top1_rate: value.top1_rate,
    beat_still_rate: value.beat_still_rate,
    ci: { S: [Number.NaN, Number.NaN] },
    films: Array.isArray(value.per_film) ? value.per_film.length : Number.NaN,
    insertions: Number.NaN,
    unresolved: Number.NaN,
    official: true,
  }));
  const otherReaders = new Map<string, string[]>();
  for (const r of official)
    if (r.reader !== o.judge.name)
      otherReaders.set(r.reader, [...(otherReaders.get(r.reader) ?? []), r.method]);
  for (const [reader, ms] of otherReaders)
    warnings.push(
      `official row${ms.length > 1 ? 's' : ''} ${ms.join(', ')} ${ms.length > 1 ? 'were' : 'was'} scored by ${reader}, not ${o.judge.name}: frame-level scores are not comparable across readers (use --rescore-official)`,
    );
  return {
    summary: {
      reader: ctx.reader,
      protocol: ctx.protocol,
      both_orders: ctx.bothOrders,
      disagreement_rule: ctx.bothOrders ? ctx.disagreement : null,
      questions,
      questions_per_insertion: insertions.length ? questions / insertions.length : 0,
      disagreement: { checks, disagreed, rate: checks ? disagreed / checks : null },
      methods: summaries,
      official,
      paired,
      warnings,
    },
    perFilm,
  };
}
