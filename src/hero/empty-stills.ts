/**
 * Why `--include-stills` gives an empty stills row (issue 57 item 7): a row of dashes over 0 films
 * says nothing, so the evaluation says which of the two reasons it is — no chain of the films holds
 * a publicity still (a dataset built without stills, or none given by --stills-dir), or each still
 * is already in every chain of its film (a still is never inserted into a chain that holds it).
 */
import type { Chain } from './dataset/schemas.js';
import { STILL_ROW } from './score.js';

export function emptyStillsReason(
  o: { includeStills?: boolean | undefined; stillsDir?: string | null | undefined },
  films: readonly string[],
  chainsOf: (film: string) => readonly Chain[],
  tasks: readonly { method: string }[],
): string | undefined {
  if (!o.includeStills || tasks.some((t) => t.method === STILL_ROW)) return undefined;
  const stills = new Set(
    films.flatMap((f) =>
      chainsOf(f).flatMap((c) =>
        c.images.filter((i) => i.source === 'still').map((i) => `${f}/${i.image_id}`),
      ),
    ),
  );
  const n = films.length;
  if (stills.size === 0)
    return `the stills row is empty: no chain of the ${n} film(s) scored holds a publicity still (no chain image has source "still")${o.stillsDir ? ` and ${o.stillsDir} has none for them` : ''}, so there is no still to insert; build the chains with stills (hero build --stills DIR), pass --stills-dir DIR (DIR/<movie_id>/<image>.jpg), or leave out --include-stills`;
  return `the stills row is empty: each of the ${stills.size} publicity still(s) of the ${n} film(s) scored is already in every chain of its film, and a still is never inserted into a chain that holds it${o.stillsDir ? '' : "; pass --stills-dir (the stills folder hero build read) to score the film's other stills, the ones the still floor deleted"}`;
}
