/**
 * Sharded runs and their merge. Shard k of n (1-based) takes items (films, cases) sorted by id;
 * item i (from 0) belongs to shard (i mod n) + 1, so every item lands in exactly one shard whatever
 * the machine. Every evaluation folder records what it was computed from in `settings.json`
 * (deterministic: the inputs' sha256, the settings that change an answer, the judge, the items
 * this folder holds); a merge refuses shards whose records differ and checks that together they
 * hold every item exactly once.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { BadInputError, messageOf, UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import { writeFileAtomic } from './atomic-write.js';
import { canonicalJson, sha256File } from './canonical.js';
import { idRecord, idRecordOf, ownValue } from './id-record.js';
import { describeZodError, readJsonFile, readLines, writeJsonFile } from './jsonl.js';
import { listedFileIn } from './listed-file.js';
import type { FolderFile } from './out-folder.js';

export interface Shard {
  k: number;
  n: number;
}

/**
 * The items of a list (`--movies`, `--case-ids`; all when absent) sorted by id, and of them a
 * shard's: listed item i (from 0) belongs to shard (i mod n) + 1.
 */
export function selectItems(
  all: Iterable<string>,
  opts: { only?: readonly string[] | undefined; shard?: Shard | undefined; what: string },
): string[] {
  const sorted = [...new Set(all)].sort();
  let items = sorted;
  if (opts.only?.length) {
    const unknown = opts.only.filter((m) => !sorted.includes(m));
    if (unknown.length)
      throw new UsageError(
        `unknown ${opts.what}(s): ${unknown.map((m) => `${m}${didYouMean(m, sorted)}`).join(', ')}`,
      );
    items = items.filter((f) => opts.only!.includes(f));
  }
  if (opts.shard) {
    const { k, n } = opts.shard;
    items = items.filter((_, i) => i % n === k - 1);
  }
  return items;
}

export const SETTINGS_FILE = 'settings.json';

export const ShardRecord = z.object({
  /** What wrote the folder, as its writer names it (the store knows no commands). */
  kind: z.string().min(1),
  /** Input name → sha256 of its bytes (the dataset's files, selections, cases). */
  inputs: z.record(z.string(), z.string()),
  /** Everything else that changes a result: protocol, seed, judge, embedder, metric constants … */
  settings: z.record(z.string(), z.unknown()),
  /** Every item of the inputs (films with chains, cases), in the order results are written. */
  all: z.array(z.string()),
  /** The items this folder holds. */
  items: z.array(z.string()),
  shard: z.object({ k: z.number().int(), n: z.number().int() }).nullable(),
  /** False when a call budget stopped the run (a merge refuses it: resume the shard first). */
  complete: z.boolean(),
});
export type ShardRecord = z.infer<typeof ShardRecord>;

/** sha256 of each file that exists, by name (absent files are recorded as "absent"). */
export async function hashInputs(files: Record<string, string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries(files)) out[name] = existsSync(f) ? await sha256File(f) : 'absent';
  return out;
}

export async function writeShardRecord(dir: string, rec: ShardRecord): Promise<string> {
  const file = join(dir, SETTINGS_FILE);
  await writeFileAtomic(file, `${JSON.stringify(ShardRecord.parse(rec), null, 2)}\n`);
  return file;
}

export const OUTPUTS_FILE = 'outputs.json';

/** The two records every evaluation folder holds, as `--help` lists them. */
export const RECORD_FILES: readonly FolderFile[] = [
  {
    name: SETTINGS_FILE,
    what: 'the inputs (sha256), settings and items the run was computed from: what a merge compares',
  },
  { name: OUTPUTS_FILE, what: 'size, sha256 and rows of every other file, written last' },
];

const FileDigest = z.object({
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
  /** JSON Lines files: the rows, and the rows of each item (film, case) by its id. */
  rows: z.number().int().nonnegative().optional(),
  rows_by_item: idRecord(z.number().int().nonnegative()).optional(),
});
type FileDigest = z.infer<typeof FileDigest>;

/**
 * outputs.json of an evaluation folder, written last: the size, sha256 and (JSON Lines) row count
 * of every file the run wrote beside it, rows also counted by item. A merge re-reads each file and
 * refuses a shard whose files do not match (emptied, cut, edited since the run).
 */
export const OutputsRecord = z.object({
  /** The field of a row that names its item (movie_id, case_id). */
  item_field: z.string(),
  files: z.record(z.string(), FileDigest),
});
export type OutputsRecord = z.infer<typeof OutputsRecord>;

/** Any JSON Lines row: an object whose item field is read when it is a string. */
const AnyRow = z.record(z.string(), z.unknown());

async function digestFile(file: string, itemField: string): Promise<FileDigest> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const c of createReadStream(file)) {
    h.update(c as Buffer);
    bytes += (c as Buffer).length;
  }
  const d: FileDigest = { bytes, sha256: h.digest('hex') };
  if (file.endsWith('.jsonl')) {
    let rows = 0;
    const by = new Map<string, number>();
    for await (const { line, text } of readLines(file)) {
      if (!text.trim()) continue;
      rows++;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (e) {
        // a line cut short or garbled: bad input at that line, not a crash (issue 46 item 6)
        throw new BadInputError(`not valid JSON, cut short or damaged (${messageOf(e)})`, { file, line });
      }
      const row = AnyRow.safeParse(json);
      const id = row.success ? row.data[itemField] : undefined;
      if (typeof id === 'string') by.set(id, (by.get(id) ?? 0) + 1);
    }
    d.rows = rows;
    d.rows_by_item = idRecordOf([...by].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return d;
}

/**
 * Write outputs.json into `dir`: a digest of each of `files` (names in `dir`; all its files but
 * outputs.json itself when absent). Call it after every other output is written.
 */
export async function writeOutputsRecord(
  dir: string,
  itemField: string,
  files?: readonly string[],
): Promise<string> {
  const names = (files ?? (await readdir(dir)).filter((f) => f !== OUTPUTS_FILE && !f.startsWith('.')))
    .slice()
    .sort();
  const rec: OutputsRecord = { item_field: itemField, files: {} };
  for (const f of names) rec.files[f] = await digestFile(join(dir, f), itemField);
  const file = join(dir, OUTPUTS_FILE);
  await writeJsonFile(file, OutputsRecord, rec);
  return file;
}

/**
 * Check a shard's files against its outputs.json: each file the merge reads (`needed`) must be
 * recorded, and every recorded file must have its recorded size and sha256. Returns the record
 * (its row counts by item are checked against the rows read by `checkRowsRead`). Throws a
 * one-line BadInputError naming the shard and the file.
 */
export async function verifyShardOutputs(f: ShardFolder, needed: readonly string[]): Promise<OutputsRecord> {
  const file = join(f.dir, OUTPUTS_FILE);
  if (!existsSync(file))
    throw new BadInputError(
      `shard ${f.dir} has no ${OUTPUTS_FILE} (the record of the files it wrote): written by an older kfbench or damaged; run that shard again`,
      { file },
    );
  const rec = await readJsonFile(file, OutputsRecord);
  for (const n of needed)
    if (!rec.files[n])
      throw new BadInputError(`shard ${f.dir}: ${OUTPUTS_FILE} does not record ${n}`, { file });
  for (const [n, want] of Object.entries(rec.files)) {
    const listed = await listedFileIn(f.dir, n, file);
    const path = listed?.path ?? join(f.dir, n);
    if (!listed)
      throw new BadInputError(`shard ${f.dir}: ${n} is missing (recorded in ${OUTPUTS_FILE})`, {
        file: path,
      });
    // a file larger than it was written is refused from its size alone, never read; a shorter or
    // equal one is read, so that a line cut short is named by its number
    const got =
      listed.bytes > want.bytes
        ? { bytes: listed.bytes, sha256: '', rows: undefined }
        : await digestFile(path, rec.item_field);
    const what =
      got.bytes !== want.bytes
        ? `${got.bytes} bytes, ${want.bytes} written`
        : got.sha256 !== want.sha256
          ? 'sha256 differs from the one written'
          : want.rows !== undefined && got.rows !== want.rows
            ? `${got.rows} rows, ${want.rows} written`
            : '';
    if (what)
      throw new BadInputError(
        `does not match what shard ${f.dir} wrote (${what}; damaged or edited since the run): refusing the shard`,
        { file: path },
      );
  }
  return rec;
}

/**
 * After the merge read a shard's rows of `name`: every row must be of an item the shard holds, and
 * the rows of each item must be as many as it wrote (coverage is what was read, not what is said).
 */
export function checkRowsRead(
  f: ShardFolder,
  rec: OutputsRecord,
  name: string,
  rows: readonly Record<string, unknown>[],
): void {
  const path = join(f.dir, name);
  const owned = new Set(f.record.items);
  const by = new Map<string, number>();
  for (const r of rows) {
    const id = String(r[rec.item_field]);
    if (!owned.has(id))
      throw new BadInputError(`a row of ${rec.item_field} ${id}, which shard ${f.dir} does not hold`, {
        file: path,
      });
    by.set(id, (by.get(id) ?? 0) + 1);
  }
  const want = ownValue(rec.files, name)?.rows_by_item ?? idRecordOf<number>([]);
  for (const id of new Set([...Object.keys(want), ...by.keys()]))
    if ((by.get(id) ?? 0) !== (ownValue(want, id) ?? 0))
      throw new BadInputError(
        `${by.get(id) ?? 0} row(s) of ${id} read, ${ownValue(want, id) ?? 0} written by shard ${f.dir}: refusing the shard`,
        { file: path },
      );
}

export interface ShardFolder {
  dir: string;
  record: ShardRecord;
}

export async function readShardFolders(dirs: readonly string[]): Promise<ShardFolder[]> {
  if (dirs.length === 0) throw new UsageError('give at least one shard folder');
  const out: ShardFolder[] = [];
  for (const d of dirs) {
    const dir = resolve(d);
    const file = join(dir, SETTINGS_FILE);
    // a regular file inside the folder (a FIFO planted as settings.json would block the read)
    if (!(await listedFileIn(dir, SETTINGS_FILE, file)))
      throw new BadInputError(`${dir} has no ${SETTINGS_FILE}: not an evaluation folder of this kfbench`, {
        file,
      });
    out.push({ dir, record: await readJsonFile(file, ShardRecord) });
  }
  return out;
}

/** The first key (dotted) at which two JSON values differ, or undefined when they are equal. */
function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (canonicalJson(a) === canonicalJson(b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ao = new Map(Object.entries(a));
    const bo = new Map(Object.entries(b));
    for (const k of [...new Set([...ao.keys(), ...bo.keys()])].sort()) {
      const d = firstDifference(ao.get(k), bo.get(k), path ? `${path}.${k}` : k);
      if (d) return d;
    }
  }
  return path;
}

/**
 * Checks that the shards are of one kind, from the same inputs and settings, complete, and hold
 * every item exactly once; returns every item in result order. Throws a one-line BadInputError
 * naming the differing setting and folder, or the items missing or doubled.
 */
export function checkShards(folders: readonly ShardFolder[], kind: ShardRecord['kind']): string[] {
  const first = folders[0]!;
  for (const f of folders) {
    if (f.record.kind !== kind)
      throw new BadInputError(`${f.dir} holds a ${f.record.kind} result, not ${kind}`);
    for (const part of ['inputs', 'settings', 'all'] as const) {
      const d = firstDifference(first.record[part], f.record[part], part);
      if (d)
        throw new BadInputError(
          `${f.dir} differs from ${first.dir} in ${d === 'all' ? 'the items of its inputs' : d}: shards must come from the same inputs, settings and judge`,
        );
    }
    if (!f.record.complete)
      throw new BadInputError(`${f.dir} is incomplete (stopped at a call budget): resume that shard first`);
  }
  const seen = new Map<string, string>();
  const doubled: string[] = [];
  for (const f of folders)
    for (const it of f.record.items) {
      if (seen.has(it)) doubled.push(`${it} (${seen.get(it)} and ${f.dir})`);
      else seen.set(it, f.dir);
    }
  if (doubled.length)
    throw new BadInputError(
      `${doubled.length} item(s) in more than one shard: ${doubled.slice(0, 3).join(', ')}${doubled.length > 3 ? ', …' : ''}`,
    );
  const missing = first.record.all.filter((it) => !seen.has(it));
  if (missing.length)
    throw new BadInputError(
      `the shards miss ${missing.length} of ${first.record.all.length} item(s): ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''} (run the missing shard(s) and merge again)`,
    );
  return first.record.all;
}

/**
 * The rows of a shard's JSONL file as written (keys in their order, so a merge writes the same
 * bytes), each checked by `schema` for the fields the merge reads.
 */
export async function readShardRows<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>[]> {
  const out: z.output<S>[] = [];
  for await (const { line, text } of readLines(file)) {
    if (!text.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new BadInputError(`not valid JSON (${messageOf(e)})`, { file, line });
    }
    const r = schema.safeParse(json);
    if (!r.success) throw new BadInputError(describeZodError(r.error), { file, line });
    out.push(json as z.output<S>);
  }
  return out;
}
