/**
 * hecate-like, after Yahoo's Hecate thumbnail tool (Song et al. 2016): drop dark, blurry, uniform
 * and transition frames; cluster the rest by colour histogram (k-means, seeded); rank clusters by
 * size; from each take its stillest frame (least change to its neighbours).
 */
import { colourHistogram, l1 } from './histogram.js';
import { allStats, type SelectionMethod } from './method.js';

export const hecateLike: SelectionMethod = {
  name: 'hecate-like',
  description:
    'drop dark/blurry/uniform/transition frames, k-means on colour histograms, clusters by size, the stillest frame of each — after Hecate',
  async select(ctx) {
    const N = ctx.frameCount;
    const st = await allStats(ctx);
    const hists: Float64Array[] = [];
    for (let i = 0; i < N; i++) hists.push(colourHistogram(await ctx.frame(i)));
    const change = hists.map((h, i) =>
      Math.min(i > 0 ? l1(h, hists[i - 1]!) : 2, i + 1 < N ? l1(h, hists[i + 1]!) : 2),
    );
    const sharp = [...st.map((s) => s.sharpness)].sort((a, b) => a - b);
    const blurCut = sharp[Math.floor(0.2 * (N - 1))] ?? 0;
    const transition = hists.map(
      (h, i) => (i > 0 ? l1(h, hists[i - 1]!) : 0) > 0.8 && (i + 1 < N ? l1(h, hists[i + 1]!) : 0) > 0.8,
    );
    let keep = st
      .map((_, i) => i)
      .filter(
        (i) =>
          st[i]!.brightness > 0.12 && st[i]!.sharpness >= blurCut && st[i]!.contrast > 0.06 && !transition[i],
      );
    if (keep.length < ctx.k) keep = st.map((_, i) => i);
    const k = Math.min(ctx.k, keep.length);
    // k-means (seeded, k-means++ start) on the kept frames' histograms
    const centres: Float64Array[] = [Float64Array.from(hists[keep[ctx.rng.int(keep.length)]!]!)];
    while (centres.length < k) {
      const d = keep.map((i) => Math.min(...centres.map((c) => l1(hists[i]!, c))) ** 2);
      let r = ctx.rng.next() * d.reduce((a, b) => a + b, 0);
      let pick = keep[keep.length - 1]!;
      for (let j = 0; j < keep.length; j++) {
        r -= d[j]!;
        if (r <= 0) {
          pick = keep[j]!;
          break;
        }
      }
      centres.push(Float64Array.from(hists[pick]!));
    }
    let assign = keep.map(() => 0);
    for (let it = 0; it < 20; it++) {
      assign = keep.map((i) => {
        let best = 0;
        for (let c = 1; c < k; c++) if (l1(hists[i]!, centres[c]!) < l1(hists[i]!, centres[best]!)) best = c;
        return best;
      });
      for (let c = 0; c < k; c++) {
        const members = keep.filter((_, j) => assign[j] === c);
        if (!members.length) continue;
        const m = new Float64Array(64);
        for (const i of members) for (let b = 0; b < 64; b++) m[b]! += hists[i]![b]! / members.length;
        centres[c] = m;
      }
    }
    const clusters = Array.from({ length: k }, (_, c) => keep.filter((_, j) => assign[j] === c)).filter(
      (m) => m.length > 0,
    );
    clusters.sort((a, b) => b.length - a.length || a[0]! - b[0]!);
    return clusters.map((m) => m.reduce((best, i) => (change[i]! < change[best]! ? i : best), m[0]!));
  },
};
