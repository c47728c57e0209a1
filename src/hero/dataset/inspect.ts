/**
 * `hero inspect`: what a downloaded root holds beside what kfbench reads. For each file, the field
 * tree of its first records (key, type, an example cut at 60 characters) with the kfbench field
 * each maps to, and every field kfbench needs that it did not find (with the paths it tried).
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { BadInputError } from '../../errors.js';
import { readJsonlLenient } from '../../store/jsonl.js';
import { datasetPaths } from './layout.js';
import { atPath, type Layout, type LayoutKey, resolveLayout, suffixReading } from './layout-map.js';

/** How many records of each file are read. */
export const INSPECT_RECORDS = 3;
/** How many elements of each list are walked. */
const LIST_ELEMENTS = 3;
const EXAMPLE_CHARS = 60;

export interface InspectField {
  path: string;
  type: string;
  example: string;
  /** The kfbench field read from here, if any. */
  maps_to?: string;
}

export interface InspectNeed {
  /** kfbench's name, with its place: `chains[].pairs[].a`. */
  field: string;
  status: 'found' | 'missing' | 'derived' | 'absent (optional)' | 'unseen (empty lists)';
  /** The published path it was found at. */
  at?: string;
  /** The paths tried, in order. */
  tried: string[];
  /** For `derived`: from what. */
  note?: string;
}

export interface InspectFile {
  file: string;
  present: boolean;
  records: number;
  /** A record that is not JSON or is past the line limit. */
  error?: string;
  fields: InspectField[];
  needs: InspectNeed[];
}

export interface InspectReport {
  root: string;
  layout: string;
  /**
   * What the suffix `n` of a sampled image id `<clip id>_<n>` is assumed to be (the layout map's
   * `sampled.suffix_per_second`): `t_in_clip = n / per_second`.
   */
  sampled_id_suffix: { per_second: number; reading: string; assumed: true };
  files: InspectFile[];
  /** Every need with status `missing`, as `file: field`. */
  missing: string[];
}

/** What kfbench reads from a file: a field (by layout key or fixed names), and within its list elements, more. */
interface Need {
  name: string;
  key?: LayoutKey;
  names?: readonly string[];
  need: 'required' | 'optional' | { derived: string };
  /** Fields inside each element of this (list) field. */
  children?: Need[];
  /** When absent, look for the children inside this sibling's elements instead (images ← order). */
  orFrom?: LayoutKey;
}

const req = (name: string, key: LayoutKey, children?: Need[]): Need => ({
  name,
  key,
  need: 'required',
  ...(children ? { children } : {}),
});
const fixed = (names: string[]): Need[] => names.map((n) => ({ name: n, names: [n], need: 'required' }));

const CHAIN_NEEDS: Need[] = [
  req('movie_id', 'movie_id'),
  req('chains', 'chains', [
    { name: 'chain_id', key: 'chain.id', need: { derived: '<movie_id>#<chain_index or position>' } },
    {
      name: 'anchor',
      key: 'chain.anchor',
      need: { derived: 'the image with source "still", else the rm prefix' },
    },
    { name: 'order', key: 'order', need: { derived: 'the images sorted by gamma' } },
    {
      name: 'images',
      key: 'images',
      need: 'required',
      orFrom: 'order',
      children: [
        req('image_id', 'image.id'),
        req('gamma', 'image.gamma'),
        req('theta_0_100', 'image.theta_0_100'),
        { name: 'source', key: 'image.source', need: { derived: 'the chain anchor, else the rm prefix' } },
        { name: 'clip_id', key: 'image.clip_id', need: { derived: 'the LSMDC clip id in the image id' } },
        { name: 't_in_clip', key: 'image.t_in_clip', need: { derived: 'the image id suffix' } },
      ],
    },
    req('pairs', 'pairs', [
      req('a', 'pair.a'),
      req('b', 'pair.b'),
      req('winner', 'pair.winner'),
      req('status', 'pair.status'),
    ]),
    { name: 'stability', key: 'chain.stability', need: 'optional' },
    { name: 'rubric_ids', key: 'chain.rubric_ids', need: 'optional' },
  ]),
];

const RUBRIC_NEEDS: Need[] = [
  req('movie_id', 'movie_id'),
  req('criteria', 'criteria', [
    req('criterion_id', 'criterion.id'),
    req('as_the_judge_read_it', 'criterion.text'),
    req('source_pair', 'criterion.source_pair'),
    req('round', 'criterion.round'),
  ]),
  { name: 'pruned_by_phase_b', key: 'rubric.pruned', need: 'optional' },
];

const BASELINE_NEEDS: Need[] = [
  req('method', 'baseline.method'),
  req('reader', 'baseline.reader'),
  req('S', 'baseline.S'),
  req('S_at_k', 'baseline.S_at_k'),
  req('top1_rate', 'baseline.top1_rate'),
  req('beat_still_rate', 'baseline.beat_still_rate'),
  req('per_film', 'baseline.per_film'),
  { name: 'selections', key: 'baseline.selections', need: 'optional' },
];

const FILES: { rel: (p: ReturnType<typeof datasetPaths>) => string; needs: Need[]; required: boolean }[] = [
  { rel: (p) => p.movies, needs: fixed(['movie_id', 'title', 'year']), required: true },
  {
    rel: (p) => p.clips,
    needs: [
      {
        name: 'movie_id',
        names: ['movie_id'],
        need: 'required',
      },
      {
        name: 'clips',
        names: ['clips'],
        need: 'required',
        children: fixed(['clip_id', 'start', 'end', 'duration_s']),
      },
    ],
    required: true,
  },
  { rel: (p) => p.chains, needs: CHAIN_NEEDS, required: true },
  { rel: (p) => p.rubrics, needs: RUBRIC_NEEDS, required: true },
  { rel: (p) => p.imageSha, needs: fixed(['path', 'sha256']), required: true },
  {
    rel: (p) => p.trackIndex,
    needs: fixed(['movie_id', 'frame_idx', 'clip_id', 't_in_clip']),
    required: false,
  },
  { rel: (p) => p.verifyDhash, needs: fixed(['movie_id', 'frame_idx', 'dhash']), required: false },
  { rel: (p) => p.baselines, needs: BASELINE_NEEDS, required: false },
];

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return typeof v;
}

function example(v: unknown): string {
  const s =
    typeof v === 'string'
      ? JSON.stringify(v)
      : Array.isArray(v)
        ? `[${v.length} items]`
        : typeof v === 'object' && v
          ? `{${Object.keys(v).length} keys}`
          : String(v);
  return s.length > EXAMPLE_CHARS ? `${s.slice(0, EXAMPLE_CHARS - 1)}…` : s;
}

/**
 * How deep a record is walked: far past any HeroFrame record (a chain's pair votes sit at depth
 * 6), and far short of the stack. A record nested deeper is bad input naming its file and line
 * (a walk without a limit overflowed the stack on `[[[[…]]]]`: an internal error, exit 1).
 */
export const MAX_INSPECT_DEPTH = 64;

/** Every path in `v` (lists as `[]`), with its types and first example. */
function walk(
  v: unknown,
  path: string,
  out: Map<string, { types: Set<string>; example: string }>,
  where: { file: string; line: number },
  depth = 0,
): void {
  if (depth > MAX_INSPECT_DEPTH)
    throw new BadInputError(
      `a record nested deeper than ${MAX_INSPECT_DEPTH} levels (at ${path.slice(0, 40)}…): not a HeroFrame record`,
      where,
    );
  if (path) {
    const e = out.get(path) ?? { types: new Set<string>(), example: example(v) };
    e.types.add(typeOf(v));
    out.set(path, e);
  }
  if (Array.isArray(v))
    for (const x of v.slice(0, LIST_ELEMENTS)) walk(x, `${path}[]`, out, where, depth + 1);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k, out, where, depth + 1);
}

const join = (parent: string, path: string) => (parent ? `${parent}[].${path}` : path);

/** Resolve `needs` in `records` (values at this level), appending to `out` and the path → field map. */
function resolve(
  needs: Need[],
  records: unknown[],
  layout: Layout,
  parentPath: string,
  parentName: string,
  out: InspectNeed[],
  mapsTo: Map<string, string>,
): void {
  const foundAt = new Map<string, string>();
  const tried = (n: Need) => [...(n.key ? layout.paths[n.key] : (n.names ?? []))];
  const find = (n: Need): { path: string; values: unknown[] } | undefined => {
    for (const path of tried(n)) {
      const values = records.map((r) => atPath(r, path)).filter((x) => x !== undefined);
      if (values.length) return { path, values };
    }
    return undefined;
  };
  for (const n of needs) {
    const field = parentName ? `${parentName}[].${n.name}` : n.name;
    let hit = find(n);
    let via = '';
    if (!hit && n.orFrom) {
      const from = find({ name: n.orFrom, key: n.orFrom, need: 'optional' });
      if (from?.values.some((v) => Array.isArray(v) && v.some((x) => x && typeof x === 'object'))) {
        hit = from;
        via = ` (image records in ${from.path})`;
      }
    }
    if (hit) {
      const at = join(parentPath, hit.path);
      foundAt.set(n.name, at);
      mapsTo.set(at, mapsTo.has(at) ? `${mapsTo.get(at)}, ${field}` : field);
      out.push({ field, status: 'found', at, tried: tried(n), ...(via ? { note: via.trim() } : {}) });
      if (n.children) {
        const elements = hit.values.flatMap((v) => (Array.isArray(v) ? v.slice(0, LIST_ELEMENTS) : []));
        if (elements.length) resolve(n.children, elements, layout, at, field, out, mapsTo);
        // lists with nothing in them in the records read: their fields cannot be checked here
        else
          for (const c of n.children)
            out.push({ field: `${field}[].${c.name}`, status: 'unseen (empty lists)', tried: tried(c) });
      }
    } else {
      const status =
        n.need === 'required' ? 'missing' : n.need === 'optional' ? 'absent (optional)' : 'derived';
      out.push({
        field,
        status,
        tried: tried(n).map((p) => join(parentPath, p)),
        ...(typeof n.need === 'object' ? { note: `from ${n.need.derived}` } : {}),
      });
      // nothing to look inside: its required fields are missing too
      const below = (ns: Need[] | undefined, at: string): void => {
        for (const c of ns ?? [])
          if (c.need === 'required') {
            out.push({ field: `${at}[].${c.name}`, status: 'missing', tried: tried(c) });
            below(c.children, `${at}[].${c.name}`);
          }
      };
      if (status === 'missing') below(n.children, field);
    }
  }
}

export async function inspectDataset(root: string, layout?: Layout | string): Promise<InspectReport> {
  if (!existsSync(root)) throw new BadInputError('missing (not a dataset root)', { file: root });
  const map = typeof layout === 'object' ? layout : resolveLayout(layout);
  const p = datasetPaths(root);
  const files: InspectFile[] = [];
  const missing: string[] = [];
  for (const f of FILES) {
    const file = f.rel(p);
    const rel = file.slice(root.length).replace(/^[\\/]+/, '');
    const entry: InspectFile = { file: rel, present: existsSync(file), records: 0, fields: [], needs: [] };
    files.push(entry);
    if (!entry.present) {
      if (f.required) missing.push(`${rel}: the file itself`);
      continue;
    }
    const records: unknown[] = [];
    const lines: number[] = [];
    try {
      for await (const l of readJsonlLenient(file, z.unknown())) {
        if (l.ok) {
          records.push(l.value);
          lines.push(l.line);
        } else entry.error = `line ${l.line}: ${l.error}`;
        if (records.length >= INSPECT_RECORDS || entry.error) break;
      }
    } catch (e) {
      if (!(e instanceof BadInputError)) throw e;
      entry.error = e.message;
    }
    entry.records = records.length;
    const tree = new Map<string, { types: Set<string>; example: string }>();
    for (const [i, r] of records.entries()) walk(r, '', tree, { file, line: lines[i]! });
    const mapsTo = new Map<string, string>();
    resolve(f.needs, records, map, '', '', entry.needs, mapsTo);
    entry.fields = [...tree].map(([path, e]) => ({
      path,
      type: [...e.types].join('|'),
      example: e.example,
      ...(mapsTo.has(path) ? { maps_to: mapsTo.get(path)! } : {}),
    }));
    for (const n of entry.needs) if (n.status === 'missing') missing.push(`${rel}: ${n.field}`);
  }
  return {
    root,
    layout: map.source,
    sampled_id_suffix: {
      per_second: map.suffixPerSecond,
      reading: suffixReading(map.suffixPerSecond),
      assumed: true,
    },
    files,
    missing,
  };
}

/** The report as text: per file, the field tree with what each maps to, then what is missing. */
export function inspectLines(r: InspectReport): string[] {
  const sfx = r.sampled_id_suffix;
  const out = [
    `${r.root} (layout map: ${r.layout})`,
    `sampled image ids <clip id>_<n>: n assumed to be ${sfx.reading}, t_in_clip = n / ${sfx.per_second} (the card says only "named for their source clip and timecode"; "sampled.suffix_per_second" in a layout map changes it)`,
  ];
  for (const f of r.files) {
    out.push(
      '',
      `${f.file}${f.present ? ` — first ${f.records} record${f.records === 1 ? '' : 's'}` : ' — absent'}`,
    );
    if (f.error) out.push(`  ! ${f.error}`);
    const w = Math.min(48, Math.max(0, ...f.fields.map((x) => x.path.length)));
    for (const x of f.fields)
      out.push(
        `  ${x.path.padEnd(w)}  ${x.type.padEnd(7)} ${x.example}${x.maps_to ? `  → ${x.maps_to}` : ''}`,
      );
    for (const n of f.needs) {
      if (n.status === 'found') continue;
      out.push(
        n.status === 'missing'
          ? `  MISSING ${n.field} (tried ${n.tried.join(', ')})`
          : `  ${n.status === 'derived' ? 'derived' : n.status === 'absent (optional)' ? 'absent, optional:' : 'unseen (the lists read are empty):'} ${n.field}${n.note ? ` ${n.note}` : ''}`,
      );
    }
  }
  out.push(
    '',
    r.missing.length
      ? `${r.missing.length} field(s) kfbench needs were not found`
      : 'every field kfbench needs was found',
  );
  return out;
}
