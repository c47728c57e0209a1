/**
 * Sharded `hero evaluate` (`--shard k/n`, `--movies`): what a folder records of its inputs and
 * settings (`settings.json`), and `kfbench merge hero`: the shards' insertions in the order an
 * unsharded run makes them, scored again over every film — the same summary, byte for byte.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import type { JudgeIdentity } from '../judge/identity.js';
import { DISAGREEMENT_RULES, INSERTION_PROTOCOLS } from '../judge/insertion.js';
import {
  checkRowsRead,
  checkShards,
  hashInputs,
  readShardFolders,
  readShardRows,
  SETTINGS_FILE,
  type ShardRecord,
  verifyShardOutputs,
} from '../store/shards.js';
import { datasetPaths } from './dataset/layout.js';
import type { Layout } from './dataset/layout-map.js';
import { type EvaluateResult, survivingStillsWarning } from './evaluate/evaluate.js';
import { officialRows } from './evaluate/inputs.js';
import { type EvaluateOptions, STILLS_RULES } from './evaluate/options.js';
import { InsertionRecord } from './results.js';
import { scoreInsertions } from './score.js';

/** settings.json of a `hero evaluate` folder (written for every run, sharded or not). */
export async function heroShardRecord(
  o: Pick<
    EvaluateOptions,
    | 'data'
    | 'track'
    | 'methods'
    | 'protocol'
    | 'bothOrders'
    | 'disagreement'
    | 'includeStills'
    | 'stills'
    | 'stillsDir'
    | 'rescoreOfficial'
    | 'missing'
    | 'seed'
    | 'bootstrapB'
    | 'shard'
  >,
  r: EvaluateResult,
  judge: JudgeIdentity,
): Promise<ShardRecord> {
  const p = datasetPaths(o.data);
  const protocol = o.protocol ?? 'listwise';
  const bothOrders = protocol === 'listwise' && !!o.bothOrders;
  return {
    kind: 'hero evaluate',
    inputs: await hashInputs({
      chains: p.chains,
      rubrics: p.rubrics,
      movies: p.movies,
      clips: p.clips,
      baselines: p.baselines,
      ...Object.fromEntries(o.methods.map((m) => [`selections:${m.method}`, m.file])),
    }),
    settings: {
      data: o.data,
      track: o.track,
      methods: o.methods.map((m) => m.method),
      protocol,
      both_orders: bothOrders,
      disagreement: o.disagreement ?? 'error',
      include_stills: !!o.includeStills,
      ...(o.includeStills ? { stills: o.stills ?? 'all', stills_dir: o.stillsDir ?? null } : {}),
      rescore_official: !!o.rescoreOfficial,
      missing: o.missing ?? 'error',
      seed: String(o.seed ?? 0),
      bootstrap: o.bootstrapB ?? 1000,
      judge,
      // which wording the reader got (reader-prompt.ts): runs asked differently are not comparable
      ...(r.readerPrompt
        ? {
            reader_prompt: {
              source: r.readerPrompt.source,
              version: r.readerPrompt.version,
              ...(r.readerPrompt.file ? { file: r.readerPrompt.file } : {}),
            },
          }
        : {}),
    },
    // every film with chains, not only --movies': folders split by --movies merge like shards
    all: r.films.every ?? r.films.all,
    items: r.films.selected,
    shard: o.shard ?? null,
    complete: r.complete,
  };
}

const Settings = z.looseObject({
  data: z.string(),
  track: z.string(),
  methods: z.array(z.string()),
  protocol: z.enum(INSERTION_PROTOCOLS),
  both_orders: z.boolean(),
  disagreement: z.enum(DISAGREEMENT_RULES),
  include_stills: z.boolean(),
  stills: z.enum(STILLS_RULES).optional(),
  stills_dir: z.string().nullable().optional(),
  rescore_official: z.boolean(),
  seed: z.string(),
  bootstrap: z.number().int(),
  judge: z.looseObject({ name: z.string() }),
});

export interface MergedHero {
  result: EvaluateResult;
  /** The shards' shared record, now holding every film. */
  record: ShardRecord;
  track: string;
  reader: string;
}

/** Merge `hero evaluate` shard folders (see checkShards for what is refused). */
/** `layout`: the map the dataset the shards name is read through (its official rows). */
export async function mergeHero(dirs: readonly string[], layout: Layout): Promise<MergedHero> {
  const folders = await readShardFolders(dirs);
  // first: each shard's files must be as it wrote them (outputs.json), before anything is compared
  const recs = [];
  for (const f of folders) recs.push(await verifyShardOutputs(f, [SETTINGS_FILE, 'insertions.jsonl']));
  const all = checkShards(folders, 'hero evaluate');
  const first = folders[0]!.record;
  const parsed = Settings.safeParse(first.settings);
  if (!parsed.success)
    throw new BadInputError(`${folders[0]!.dir}/settings.json does not record a hero evaluation's settings`);
  const s = parsed.data;
  const official = await officialRows(s.data, layout);
  const methods = [
    ...s.methods,
    ...(s.rescore_official ? official.map((r) => `${r.method} (rescored)`) : []),
    ...(s.include_stills ? ['stills'] : []),
  ];
  // an unsharded run makes insertions method by method, film by film (each film's in one shard)
  const rank = (r: { method: string; movie_id: string }) =>
    methods.indexOf(r.method) * all.length + all.indexOf(r.movie_id);
  const insertions: InsertionRecord[] = [];
  for (const [i, f] of folders.entries()) {
    // its rows: of the films it holds, as many of each as it wrote
    const rec = recs[i]!;
    const rows = await readShardRows(join(f.dir, 'insertions.jsonl'), InsertionRecord);
    checkRowsRead(f, rec, 'insertions.jsonl', rows);
    insertions.push(...rows);
  }
  const unknown = insertions.find((r) => !methods.includes(r.method) || !all.includes(r.movie_id));
  if (unknown)
    throw new BadInputError(
      `an insertion of method ${unknown.method}, film ${unknown.movie_id} is not of the recorded inputs`,
    );
  insertions.sort((a, b) => rank(a) - rank(b));
  const scored = scoreInsertions(insertions, {
    methods,
    films: all,
    complete: true,
    reader: s.judge.name,
    protocol: s.protocol,
    bothOrders: s.both_orders,
    disagreement: s.disagreement,
    seed: s.seed,
    bootstrapB: s.bootstrap,
    official,
  });
  // the warnings an unsharded run adds to its summary (scoreInsertions makes the rest)
  const stillsWarning = survivingStillsWarning(s.include_stills, s.stills, s.stills_dir);
  if (stillsWarning) scored.summary.warnings.push(stillsWarning);
  return {
    result: { ...scored, insertions, complete: true, films: { all, selected: all } },
    record: { ...first, items: all, shard: null, complete: true },
    track: s.track,
    reader: s.judge.name,
  };
}
