/** cluster: k-means (seeded, k-means++) on embedder features of the track frames; the frame nearest each centroid, clusters by size. */
import { cosine, embedEach } from '../../embed/embedder.js';
import { needed, type SelectionMethod } from './method.js';

export const cluster: SelectionMethod = {
  name: 'cluster',
  description:
    'k-means on embedder features (builtin by default) of the 1 fps frames; the frame nearest each centroid, largest clusters first — the classic clustering keyframe extractor',
  needs: { embedder: true },
  async select(ctx) {
    const N = ctx.frameCount;
    const k = Math.min(ctx.k, N);
    const embedder = needed(ctx.embedder, 'cluster', 'embedder');
    const feats: Float32Array[] = [];
    for (let i = 0; i < N; i += 16) {
      const batch = [];
      for (let j = i; j < Math.min(N, i + 16); j++) batch.push(await ctx.frame(j));
      feats.push(...(await embedEach(embedder, batch)));
    }
    const dist = (a: Float32Array, b: Float32Array) => 1 - cosine(a, b);
    const centres: Float32Array[] = [Float32Array.from(feats[ctx.rng.int(N)]!)];
    while (centres.length < k) {
      const d = feats.map((f) => Math.min(...centres.map((c) => dist(f, c))) ** 2);
      let r = ctx.rng.next() * d.reduce((a, b) => a + b, 0);
      let pick = N - 1;
      for (let j = 0; j < N; j++) {
        r -= d[j]!;
        if (r <= 0) {
          pick = j;
          break;
        }
      }
      centres.push(Float32Array.from(feats[pick]!));
    }
    let assign: number[] = [];
    for (let it = 0; it < 25; it++) {
      assign = feats.map((f) => {
        let best = 0;
        for (let c = 1; c < k; c++) if (dist(f, centres[c]!) < dist(f, centres[best]!)) best = c;
        return best;
      });
      for (let c = 0; c < k; c++) {
        const members = feats.filter((_, j) => assign[j] === c);
        if (!members.length) continue;
        const m = new Float32Array(members[0]!.length);
        for (const f of members) for (let d = 0; d < m.length; d++) m[d]! += f[d]! / members.length;
        centres[c] = m;
      }
    }
    const groups = Array.from({ length: k }, (_, c) =>
      feats.map((_, j) => j).filter((j) => assign[j] === c),
    ).filter((g) => g.length);
    groups.sort((a, b) => b.length - a.length || a[0]! - b[0]!);
    return groups.map((g, gi) => {
      const c = centres[assign[g[0]!]!]!;
      void gi;
      return g.reduce((best, j) => (dist(feats[j]!, c) < dist(feats[best]!, c) ? j : best), g[0]!);
    });
  },
};
