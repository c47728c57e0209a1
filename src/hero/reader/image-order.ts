/**
 * The order the reader's images are sent in, checked against the release example (issue 54 item
 * 4: "`hero prompt --check` also checks the order the images are sent in against the example").
 * kfbench sends a chain best first (its `order`), then the candidate; `--both-orders` also asks
 * with the chain worst first. The example's images that are in one of its film's chains are
 * compared with that chain's order, and every other image (the candidate) must come after them.
 */
import type { FilmChains } from '../dataset/schemas.js';

export interface ImageOrderCheck {
  equal: boolean;
  /** The example's image ids, in its order. */
  example: string[];
  /** The same ids in the order kfbench sends them. */
  kfbench: string[];
  /** The chain of the film the example's images were matched to (its index), if any. */
  chain: number | null;
  /** Why they differ, in a sentence; empty when equal. */
  reason: string;
}

export function checkImageOrder(ids: readonly string[], film: FilmChains | undefined): ImageOrderCheck {
  const chains = film?.chains ?? [];
  // the chain holding the most of the example's images (the first such)
  let best = -1;
  let held = 0;
  chains.forEach((c, i) => {
    const n = ids.filter((id) => c.order.includes(id)).length;
    if (n > held) {
      best = i;
      held = n;
    }
  });
  const example = [...ids];
  if (best < 0)
    return {
      equal: false,
      example,
      kfbench: example,
      chain: null,
      reason: `none of the example's images is in a chain of ${film?.movie_id ?? 'its film'}: the order cannot be checked`,
    };
  const order = chains[best]!.order;
  const inChain = ids.filter((id) => order.includes(id)).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const kfbench = [...inChain, ...ids.filter((id) => !order.includes(id))];
  const equal = kfbench.every((id, i) => id === ids[i]);
  const shown = ids.filter((id) => order.includes(id));
  const reversed = shown.length > 1 && shown.every((id, i) => id === inChain[inChain.length - 1 - i]);
  const reason = equal
    ? ''
    : reversed
      ? `the example sends chain ${best} worst first; kfbench sends a chain best first (--both-orders also asks worst first)`
      : ids.findIndex((id) => !order.includes(id)) < ids.findLastIndex((id) => order.includes(id))
        ? 'the example sends the candidate before the chain; kfbench sends it after the chain'
        : `the example's images of chain ${best} are not in the chain's order`;
  return { equal, example, kfbench, chain: best, reason };
}
