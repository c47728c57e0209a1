/**
 * `hero inspect`: what a downloaded root holds beside what kfbench reads. For each file, the field
 * tree of its first records (key, type, an example cut at 60 characters) with the kfbench field
 * each maps to, and every field kfbench needs that it did not find (with the paths it tried).
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { BadInputError } from '../../errors.js';
import { readJsonlLenient } from '../../store/jsonl.js';
import { FILES, type Need } from './inspect-needs.js';
import { datasetPaths } from './layout.js';
import { atPath, type Layout, resolveLayout, suffixReading } from './layout-map.js';

/** How many records of each file are read. */
const INSPECT_RECORDS = 3;
/** How many elements of each list are walked. */
const LIST_ELEMENTS = 3;
const EXAMPLE_CHARS = 60;

interface InspectField {
  path: string;
  type: string;
  example: string;
  /** The kfbench field read from here, if any. */
  maps_to?: string;
}

interface InspectNeed {
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

interface InspectFile {
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
const MAX_INSPECT_DEPTH = 64;

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
