/**
 * vlm-pick: a shortlist of eight frames (evenly spaced, each the sharpest of its stretch), then the
 * judge compares every pair under both placements, told only the fixed sentence of eval/query.txt;
 * frames ranked by confident wins (ties by film order).
 */
import { runPool } from '../../concurrency/pool.js';
import { comparePair } from '../../judge/pairwise.js';
import { allStats, needed, type SelectionMethod } from './method.js';

const SHORTLIST = 8;

export const vlmPick: SelectionMethod = {
  name: 'vlm-pick',
  description:
    'the judge picks the best of a shortlist of 8 frames (round robin, both placements), given only eval/query.txt',
  needs: { judge: true },
  async select(ctx) {
    const { judge, encoder, query, trackFrame } = needed(ctx.judge, 'vlm-pick', 'judge');
    const st = await allStats(ctx);
    const n = Math.min(SHORTLIST, ctx.frameCount);
    const shortlist: number[] = [];
    for (let b = 0; b < n; b++) {
      const lo = Math.floor((b * ctx.frameCount) / n);
      const hi = Math.floor(((b + 1) * ctx.frameCount) / n);
      let best = lo;
      for (let i = lo; i < hi; i++) if (st[i]!.sharpness > st[best]!.sharpness) best = i;
      shortlist.push(best);
    }
    const imgs = await Promise.all(shortlist.map((i) => encoder.fromFile(trackFrame(i))));
    const wins = shortlist.map(() => 0);
    const pairs: [number, number][] = [];
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) pairs.push([a, b]);
    // every pair at once (the judge bounds the calls in flight); the first failure stops the rest
    await runPool(
      pairs,
      async ([a, b], _i, signal) => {
        const r = await comparePair(judge.withSignal(signal), imgs[a]!, imgs[b]!, query);
        if (r.status === 'confident') wins[r.winner === 'A' ? a : b]!++;
      },
      { concurrency: Math.max(1, pairs.length) },
    );
    return shortlist
      .map((f, i) => ({ f, w: wins[i]! }))
      .sort((x, y) => y.w - x.w || x.f - y.f)
      .slice(0, ctx.k)
      .map((x) => x.f);
  },
};
