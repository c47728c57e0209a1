/**
 * `compass align`'s agreement in one dimension (SPEC §3.4; seed D: "Pairwise agreement counts
 * decisive human majorities against per-case automatic-score differences"): a strict majority of
 * an item's votes for A or for B against the sign of the automatic score difference (0 counts as
 * disagreement; an item whose case lacks an automatic score for one of its models is `unscored`),
 * with a case-clustered bootstrap 95 % interval. An item is (case, unordered model pair, dimension).
 */
import { clusteredBootstrap } from '../../stats/bootstrap.js';
import type { AlignOptions, AlignResult, Judgment } from '../schemas/align.js';
import { chosen, pairKey } from './votes.js';

/** Agreement of dimension `d`'s votes `dv`; `score` keyed `case|model|dimension`. */
export function agreement(
  dv: readonly Judgment[],
  score: ReadonlyMap<string, number>,
  d: string,
  o: AlignOptions,
): AlignResult['agreement'][string] {
  // decisive majorities vs the sign of the automatic difference
  const items = new Map<string, Judgment[]>();
  for (const v of dv) {
    const k = `${v.case_id}|${pairKey(v.model_a, v.model_b)}`;
    items.set(k, [...(items.get(k) ?? []), v]);
  }
  // per item: null when not decisive, else whether the automatic difference agrees
  const verdicts: { case_id: string; agrees: boolean | null }[] = [];
  let unscored = 0;
  for (const item of items.values()) {
    const first = item[0];
    if (!first) continue; // an item holds the votes that made it: never empty
    const tally = new Map<string, number>();
    for (const v of item) tally.set(chosen(v), (tally.get(chosen(v)) ?? 0) + 1);
    const winner = [...tally.entries()].find(([c, n]) => c !== 'tie' && n > item.length / 2)?.[0];
    if (!winner) {
      verdicts.push({ case_id: first.case_id, agrees: null });
      continue;
    }
    const loser = first.model_a === winner ? first.model_b : first.model_a;
    const sw = score.get(`${first.case_id}|${winner}|${d}`);
    const sl = score.get(`${first.case_id}|${loser}|${d}`);
    // a case the automatic side did not measure for one of the two (export-scores leaves it out) says nothing
    if (sw === undefined || sl === undefined) {
      unscored++;
      verdicts.push({ case_id: first.case_id, agrees: null });
      continue;
    }
    verdicts.push({ case_id: first.case_id, agrees: sw - sl > 0 });
  }
  const rate = (xs: readonly { agrees: boolean | null }[]) => {
    const dec = xs.filter((x) => x.agrees !== null);
    return dec.length ? dec.filter((x) => x.agrees).length / dec.length : Number.NaN;
  };
  const decisive = verdicts.filter((x) => x.agrees !== null).length;
  const agreeCi = decisive
    ? clusteredBootstrap(verdicts, (x) => x.case_id, rate, { B: o.B, seed: `${o.seed}/agree/${d}` }).ci
    : null;
  return {
    rate: decisive ? rate(verdicts) : null,
    ci: agreeCi?.every(Number.isFinite) ? agreeCi : null,
    coverage: items.size ? decisive / items.size : 0,
    n: decisive,
    items: items.size,
    unscored,
  };
}
