/**
 * The layout map: for each field kfbench reads from a HeroFrame-Bench file, the path(s) in the
 * published record where it is looked for. The dataset card and its viewer show some names (marked
 * KNOWN below, with where they are shown); the rest are not shown anywhere we can read and are our
 * best reading (marked ASSUMED). Several paths for one field are aliases tried in order; the first
 * present one is used and reported (`hero inspect`, `hero validate --json`). A user's map
 * (`--layout FILE` or `KFBENCH_HERO_LAYOUT`) replaces the alias list of the keys it names.
 * A path is a field name, or dotted names for a nested field (`"bt.gamma"`).
 */
import { BadInputError, messageOf } from '../../errors.js';
import { didYouMean } from '../../nearest.js';
import { readTextFile } from '../../store/limits.js';

/** Every key kfbench reads, with its default alias list. One entry, one comment. */
const DEFAULT_LAYOUT = {
  // ---- data/chains.jsonl, one line per film
  /** KNOWN (dataset viewer of chains.jsonl; SPEC §2.1): `movie_id`, e.g. `0001_American_Beauty`. */
  movie_id: ['movie_id'],
  /** KNOWN (dataset viewer): the film's chains are the list `chains`. */
  chains: ['chains'],
  /** KNOWN (dataset viewer): `group_id` = `<movie_id>-<anchor>-d<draw>`; `chain_id` is kfbench's own name. */
  'chain.id': ['group_id', 'chain_id'],
  /** KNOWN (dataset viewer): `chain_index`, 0-based; the id of last resort is `<movie_id>#<chain_index>`. */
  'chain.index': ['chain_index'],
  /** KNOWN (dataset viewer): `anchor`, the publicity still's id (`rm` + digits). */
  'chain.anchor': ['anchor'],
  /** KNOWN (dataset viewer): `rubric_ids`, the criteria ids (`L1`, `L2`, …) the chain was judged with. */
  'chain.rubric_ids': ['rubric_ids'],
  /** ASSUMED (the card says "the six-image order", no name shown): ids best first, or image records. */
  order: ['order', 'ranking', 'final_order', 'ordered_images'],
  /** ASSUMED (no name shown): the chain's six image records; absent → taken from `order` when it holds records. */
  images: ['images', 'members', 'image_records'],
  /** ASSUMED: an image record's id (`rm…` for stills, `<clip id>_<n>` for sampled frames). */
  'image.id': ['image_id', 'id', 'image'],
  /** ASSUMED (kfbench's own): `still` | `sampled`; absent → derived from the chain's `anchor`, then the `rm` prefix. */
  'image.source': ['source'],
  /** ASSUMED (kfbench's own): absent → derived from a sampled image's id (the LSMDC clip id). */
  'image.clip_id': ['clip_id'],
  /** ASSUMED (the card uses the term for the track): absent → derived from the id's suffix. */
  'image.t_in_clip': ['t_in_clip'],
  /** KNOWN (card, "Reading the data correctly"): `gamma` is the raw Bradley–Terry strength. */
  'image.gamma': ['gamma'],
  /** KNOWN (card): `theta_0_100`, the strength mapped to 0–100 for display. */
  'image.theta_0_100': ['theta_0_100'],
  /** KNOWN (card: "pairs[].status distinguishes two things"): the 15 pairwise judgements. */
  pairs: ['pairs', 'judgements', 'judgments', 'comparisons'],
  /** ASSUMED (no name shown): the first image of a pair. */
  'pair.a': ['a', 'left', 'image_a', 'img_a'],
  /** ASSUMED (no name shown): the second image of a pair. */
  'pair.b': ['b', 'right', 'image_b', 'img_b'],
  /** ASSUMED (no name shown): the chosen image (an id, or the side `a`/`b`/`left`/`right`); null when unresolved. */
  'pair.winner': ['winner', 'preferred', 'choice'],
  /** KNOWN (card): `status` is `confident` or `unresolved`. */
  'pair.status': ['status'],
  /** ASSUMED (the card says "stability statistics", no name shown). */
  'chain.stability': ['stability', 'stability_stats'],
  /** KNOWN (dataset viewer): `method_tag`, `summary`, `removed_anchors` of a film row (kept, shown by the viewer). */
  'film.summary': ['summary'],
  // ---- data/rubrics.jsonl, one line per film
  /** ASSUMED (the card names no list): the film's learned criteria. */
  criteria: ['criteria', 'rubric', 'rules'],
  /** ASSUMED name; its values are KNOWN to be the chains' `rubric_ids` (`L1`, …). */
  'criterion.id': ['criterion_id', 'rubric_id', 'id'],
  /** KNOWN (card): `as_the_judge_read_it`, the exact sentence the judge saw. */
  'criterion.text': ['as_the_judge_read_it'],
  /** ASSUMED (card: "Each records its source image pair", no name shown). */
  'criterion.source_pair': ['source_pair', 'source_images', 'pair'],
  /** ASSUMED (card: "which round learned it", no name shown). */
  'criterion.round': ['round', 'learned_round', 'learned_in_round'],
  /** KNOWN (card): `pruned_by_phase_b`. */
  'rubric.pruned': ['pruned_by_phase_b'],
  // ---- eval/baselines.jsonl, one line per method (the card lists what a row holds, not its names)
  /** ASSUMED. */
  'baseline.method': ['method', 'name'],
  /** ASSUMED. */
  'baseline.reader': ['reader'],
  /** ASSUMED (the card writes "S"). */
  'baseline.S': ['S', 'score'],
  /** ASSUMED (the card writes "S@k"). */
  'baseline.S_at_k': ['S_at_k', 'S@k'],
  /** ASSUMED (the card writes "top-1 rate"). */
  'baseline.top1_rate': ['top1_rate', 'top1'],
  /** ASSUMED (the card writes "beat-the-still rate"). */
  'baseline.beat_still_rate': ['beat_still_rate', 'beat_the_still_rate'],
  /** ASSUMED (the card: "per-film scores"). */
  'baseline.per_film': ['per_film'],
  /** ASSUMED (the card: "the actual frames each method picked"), each in the selections format. */
  'baseline.selections': ['selections', 'frames'],
} as const satisfies Record<string, readonly string[]>;

export type LayoutKey = keyof typeof DEFAULT_LAYOUT;

/**
 * ASSUMED: a sampled image's id is its LSMDC clip id plus `_<n>`, and `n` counts frames at 25 per
 * second from the clip's start (LSMDC footage is PAL DVD material), so `t_in_clip = n / 25`. The
 * example `…_00.59.48.959-00.59.55.359_150` (a 6.4 s clip) gives 6.0 s, inside it. Other readings
 * (milliseconds: 1000, hundredths: 100) are one number away in a layout file.
 */
export const DEFAULT_SUFFIX_PER_SECOND = 25;

/**
 * What a suffix rate reads the sampled-id suffix as (printed by `hero inspect`). The card says only
 * that sampled frames "are named for their source clip and timecode" (HeroFrame-Bench card, Files).
 */
export function suffixReading(perSecond: number): string {
  if (perSecond === 25) return "frames at 25 per second (PAL) from the clip's start";
  if (perSecond === 1000) return "milliseconds from the clip's start";
  if (perSecond === 100) return "hundredths of a second from the clip's start";
  if (perSecond === 1) return "seconds from the clip's start";
  return `units of 1/${perSecond} s from the clip's start`;
}

export interface Layout {
  paths: Record<LayoutKey, readonly string[]>;
  /** `t_in_clip = suffix / suffixPerSecond` for a sampled image id `<clip id>_<suffix>`. */
  suffixPerSecond: number;
  /** Where the map came from: `built-in`, or the file (with the keys it sets). */
  source: string;
}

export const defaultLayout = (): Layout => ({
  paths: { ...DEFAULT_LAYOUT },
  suffixPerSecond: DEFAULT_SUFFIX_PER_SECOND,
  source: 'built-in',
});

const SUFFIX_KEY = 'sampled.suffix_per_second';

/** A layout map from its JSON text: unknown keys and bad values are errors naming the key. */
export function parseLayout(text: string, file: string): Layout {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BadInputError(`not valid JSON (${messageOf(e)})`, { file });
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new BadInputError('a layout map is a JSON object {"<kfbench field>": "<path>" | ["<path>", …]}', {
      file,
    });
  const out = defaultLayout();
  out.source = file;
  const known = Object.keys(DEFAULT_LAYOUT);
  for (const [k, v] of Object.entries(raw)) {
    if (k.startsWith('$') || k.startsWith('//')) continue; // comments
    if (k === SUFFIX_KEY) {
      if (typeof v !== 'number' || !(v > 0))
        throw new BadInputError(`"${k}" must be a positive number (units of the id suffix per second)`, {
          file,
        });
      out.suffixPerSecond = v;
      continue;
    }
    if (!isLayoutKey(k))
      throw new BadInputError(
        `unknown key "${k}"${didYouMean(k, [...known, SUFFIX_KEY])} (known: ${[...known, SUFFIX_KEY].join(', ')})`,
        { file },
      );
    const list = typeof v === 'string' ? [v] : v;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((s) => typeof s === 'string' && s.length > 0)
    )
      throw new BadInputError(`"${k}" must be a path or a non-empty list of paths`, { file });
    out.paths[k] = list;
  }
  return out;
}

/**
 * A layout file's map, else the built-in one. The CLI resolves it once (`--layout FILE`, else
 * `KFBENCH_HERO_LAYOUT`, read in src/cli/env.ts) and passes the map down (issue 47 item 5).
 */
export function resolveLayout(file: string | undefined): Layout {
  return file ? parseLayout(readTextFile(file), file) : defaultLayout();
}

function isLayoutKey(k: string): k is LayoutKey {
  return Object.hasOwn(DEFAULT_LAYOUT, k);
}

/** The value at a dotted path, or undefined. */
export function atPath(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    if (!Object.hasOwn(v, part)) return undefined;
    v = Reflect.get(v, part);
  }
  return v;
}

/** Which alias each key resolved to, counted over the records read (reported to the user). */
export class LayoutReport {
  readonly chosen = new Map<LayoutKey, Map<string, number>>();
  readonly derived = new Map<string, number>();
  note(key: LayoutKey, path: string): void {
    const m = this.chosen.get(key) ?? new Map<string, number>();
    m.set(path, (m.get(path) ?? 0) + 1);
    this.chosen.set(key, m);
  }
  derive(what: string): void {
    this.derived.set(what, (this.derived.get(what) ?? 0) + 1);
  }
  toJSON(): { chosen: Record<string, Record<string, number>>; derived: Record<string, number> } {
    const chosen: Record<string, Record<string, number>> = {};
    for (const [k, m] of [...this.chosen].sort((a, b) => a[0].localeCompare(b[0])))
      chosen[k] = Object.fromEntries(m);
    return { chosen, derived: Object.fromEntries([...this.derived].sort()) };
  }
  /** One line per key: `pairs ← judgements` (several when records differ). */
  lines(): string[] {
    const j = this.toJSON();
    return [
      ...Object.entries(j.chosen).map(([k, m]) => `${k} ← ${Object.keys(m).join(' | ')}`),
      ...Object.entries(j.derived).map(([k, n]) => `${k}: derived ${n}×`),
    ];
  }
}

/** The first alias of `key` present in `obj`: its value and path (noted in `report`). */
export function pick(
  obj: unknown,
  layout: Layout,
  key: LayoutKey,
  report?: LayoutReport,
): { value: unknown; path: string } | undefined {
  for (const path of layout.paths[key]) {
    const value = atPath(obj, path);
    if (value !== undefined) {
      report?.note(key, path);
      return { value, path };
    }
  }
  return undefined;
}
