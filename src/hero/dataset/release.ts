/**
 * Reading a record as published: each function takes one parsed JSONL row in the release's shape
 * (or kfbench's own, which the default map also reads) and returns it in kfbench's shape, every
 * original field kept, before the zod schema checks it. What the layout map does not find is left
 * absent, so the schema names it.
 */
import { type Layout, type LayoutKey, type LayoutReport, pick } from './layout-map.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** An LSMDC clip id: `<movie_id>_<hh.mm.ss.fff>-<hh.mm.ss.fff>`. */
const LSMDC_CLIP = /^(.+_\d{2}\.\d{2}\.\d{2}\.\d{3}-\d{2}\.\d{2}\.\d{2}\.\d{3})_(\d+)$/;

/** A sampled image id `<LSMDC clip id>_<n>` → its clip and time (n / suffixPerSecond); else undefined. */
export function parseSampledId(
  id: string,
  suffixPerSecond: number,
): { clip_id: string; t_in_clip: number; suffix: number } | undefined {
  const m = LSMDC_CLIP.exec(id);
  if (!m) return undefined;
  const suffix = Number(m[2]);
  return { clip_id: m[1]!, t_in_clip: Math.round((suffix / suffixPerSecond) * 1e6) / 1e6, suffix };
}

/** The id a sampled image gets: its clip id and `round(t_in_clip × suffixPerSecond)`. */
export function sampledImageId(clipId: string, tInClip: number, suffixPerSecond: number): string {
  return `${clipId}_${Math.round(tInClip * suffixPerSecond)}`;
}

/** A publicity still's id as published: `rm` + digits. */
const STILL_ID = /^rm\d/;

function get(o: unknown, layout: Layout, key: LayoutKey, report?: LayoutReport): unknown {
  return pick(o, layout, key, report)?.value;
}

/** Set `key` on `out` when `v` is defined. */
function put(out: Obj, key: string, v: unknown): void {
  if (v !== undefined) out[key] = v;
}

function imageId(v: unknown, layout: Layout, report?: LayoutReport): unknown {
  return typeof v === 'string' ? v : get(v, layout, 'image.id', report);
}

/** One chain → kfbench's shape (chain_id is set by the film, which knows whether ids are unique). */
function readChain(c: Obj, layout: Layout, report?: LayoutReport): Obj {
  const out: Obj = { ...c };
  const orderRaw = get(c, layout, 'order', report);
  let imagesRaw = get(c, layout, 'images', report);
  if (imagesRaw === undefined && Array.isArray(orderRaw) && orderRaw.some(isObj)) {
    imagesRaw = orderRaw;
    report?.derive('images (from the order list)');
  }
  const anchor = get(c, layout, 'chain.anchor', report);
  if (Array.isArray(imagesRaw)) {
    out.images = imagesRaw.map((im) => {
      if (!isObj(im) && typeof im !== 'string') return im;
      const r: Obj = isObj(im) ? { ...im } : {};
      const id = imageId(im, layout, report);
      put(r, 'image_id', id);
      put(r, 'gamma', get(im, layout, 'image.gamma', report));
      put(r, 'theta_0_100', get(im, layout, 'image.theta_0_100', report));
      let source = get(im, layout, 'image.source', report);
      if (typeof anchor === 'string' && typeof id === 'string') {
        if (source === undefined) report?.derive('image.source (from the chain anchor)');
        // the anchor decides; a record's own disagreeing `source` is kept under its own name for validate
        if (source !== undefined && source !== (id === anchor ? 'still' : 'sampled'))
          r.source_as_published = source;
        source = id === anchor ? 'still' : 'sampled';
      } else if (source === undefined && typeof id === 'string') {
        source = STILL_ID.test(id) ? 'still' : 'sampled';
        report?.derive('image.source (from the rm prefix)');
      }
      put(r, 'source', source);
      let clip = get(im, layout, 'image.clip_id', report);
      let t = get(im, layout, 'image.t_in_clip', report);
      if (source === 'sampled' && typeof id === 'string' && (clip === undefined || t === undefined)) {
        const parsed = parseSampledId(id, layout.suffixPerSecond);
        if (parsed) {
          if (clip === undefined) {
            clip = parsed.clip_id;
            report?.derive('image.clip_id (from the image id)');
          }
          if (t === undefined) {
            t = parsed.t_in_clip;
            report?.derive('image.t_in_clip (from the image id suffix)');
          }
        }
      }
      put(r, 'clip_id', clip);
      put(r, 't_in_clip', t);
      return r;
    });
  }
  if (Array.isArray(orderRaw)) out.order = orderRaw.map((o) => imageId(o, layout));
  else if (Array.isArray(out.images)) {
    // no explicit order: the images by strength, strongest first (ties by id)
    out.order = out.images
      .filter(isObj)
      .filter((i) => typeof i.image_id === 'string')
      .sort(
        (x, y) => Number(y.gamma) - Number(x.gamma) || String(x.image_id).localeCompare(String(y.image_id)),
      )
      .map((i) => i.image_id);
    report?.derive('order (images by gamma)');
  }
  const pairs = get(c, layout, 'pairs', report);
  if (Array.isArray(pairs))
    out.pairs = pairs.map((p) => {
      if (!isObj(p)) return p;
      const r: Obj = { ...p };
      const a = imageId(get(p, layout, 'pair.a', report), layout);
      const b = imageId(get(p, layout, 'pair.b', report), layout);
      put(r, 'a', a);
      put(r, 'b', b);
      const w = pick(p, layout, 'pair.winner', report);
      let winner = w === undefined ? undefined : imageId(w.value, layout);
      // a side named rather than an image: a/left/A → the first image, b/right/B → the second
      if (typeof winner === 'string' && winner !== a && winner !== b) {
        if (['a', 'A', 'left', 'first', '0'].includes(winner)) winner = a;
        else if (['b', 'B', 'right', 'second', '1'].includes(winner)) winner = b;
      }
      if (w !== undefined) r.winner = winner ?? null;
      else if (get(p, layout, 'pair.status') === 'unresolved') r.winner = null;
      put(r, 'status', get(p, layout, 'pair.status', report));
      return r;
    });
  put(out, 'stability', get(c, layout, 'chain.stability', report));
  put(out, 'rubric_ids', get(c, layout, 'chain.rubric_ids', report));
  return out;
}

/** A chains.jsonl row → kfbench's shape: chain ids per SPEC §2.1 (group_id if unique, else chain_id, else `<movie>#<index>`). */
export function readFilmChains(raw: unknown, layout: Layout, report?: LayoutReport): unknown {
  if (!isObj(raw)) return raw;
  const out: Obj = { ...raw };
  const movie = get(raw, layout, 'movie_id', report);
  put(out, 'movie_id', movie);
  const chains = get(raw, layout, 'chains', report);
  if (!Array.isArray(chains)) return out;
  const read = chains.map((c) => (isObj(c) ? readChain(c, layout, report) : c));
  // the first id alias every chain carries with distinct values
  let ids: unknown[] | undefined;
  for (const path of layout.paths['chain.id']) {
    const vals = chains.map((c) =>
      isObj(c)
        ? pick(c, { ...layout, paths: { ...layout.paths, 'chain.id': [path] } }, 'chain.id')?.value
        : undefined,
    );
    if (vals.every((v) => typeof v === 'string' && v.length > 0) && new Set(vals).size === vals.length) {
      ids = vals;
      for (let i = 0; i < vals.length; i++) report?.note('chain.id', path);
      break;
    }
  }
  out.chains = read.map((c, i) => {
    if (!isObj(c)) return c;
    let id = ids?.[i];
    if (id === undefined) {
      const index = get(c, layout, 'chain.index', report);
      id = `${String(movie)}#${typeof index === 'number' ? index : i}`;
      report?.derive('chain.id (<movie_id>#<chain_index>)');
    }
    return { ...c, chain_id: id };
  });
  return out;
}

/** A rubrics.jsonl row → kfbench's shape. */
export function readFilmRubric(raw: unknown, layout: Layout, report?: LayoutReport): unknown {
  if (!isObj(raw)) return raw;
  const out: Obj = { ...raw };
  put(out, 'movie_id', get(raw, layout, 'movie_id', report));
  const criteria = get(raw, layout, 'criteria', report);
  if (Array.isArray(criteria))
    out.criteria = criteria.map((c) => {
      if (!isObj(c)) return c;
      const r: Obj = { ...c };
      put(r, 'criterion_id', get(c, layout, 'criterion.id', report));
      put(r, 'as_the_judge_read_it', get(c, layout, 'criterion.text', report));
      put(r, 'source_pair', get(c, layout, 'criterion.source_pair', report));
      put(r, 'round', get(c, layout, 'criterion.round', report));
      return r;
    });
  put(out, 'pruned_by_phase_b', get(raw, layout, 'rubric.pruned', report));
  return out;
}

/** A baselines.jsonl row → kfbench's shape. */
export function readBaselineRow(raw: unknown, layout: Layout, report?: LayoutReport): unknown {
  if (!isObj(raw)) return raw;
  const out: Obj = { ...raw };
  const keys = [
    ['method', 'baseline.method'],
    ['reader', 'baseline.reader'],
    ['S', 'baseline.S'],
    ['S_at_k', 'baseline.S_at_k'],
    ['top1_rate', 'baseline.top1_rate'],
    ['beat_still_rate', 'baseline.beat_still_rate'],
    ['per_film', 'baseline.per_film'],
    ['selections', 'baseline.selections'],
  ] as const;
  for (const [k, key] of keys) put(out, k, get(raw, layout, key, report));
  return out;
}
