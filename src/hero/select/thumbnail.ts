/**
 * ffmpeg-thumbnail: ffmpeg's `thumbnail` filter picks, in each batch of frames, the one closest to
 * the batch's mean colour histogram (the most representative frame). Here the film's track is cut
 * into k equal batches and each gives its representative, in film order.
 */
import { colourHistogram, l1 } from './histogram.js';
import type { SelectionMethod } from './method.js';

export const ffmpegThumbnail: SelectionMethod = {
  name: 'ffmpeg-thumbnail',
  description:
    "per batch of frames (k equal parts of the film) the frame closest to the batch's mean colour histogram — ffmpeg's thumbnail filter",
  async select(ctx) {
    const k = Math.min(ctx.k, ctx.frameCount);
    const out: number[] = [];
    for (let b = 0; b < k; b++) {
      const lo = Math.floor((b * ctx.frameCount) / k);
      const hi = Math.floor(((b + 1) * ctx.frameCount) / k);
      const hists = [];
      for (let i = lo; i < hi; i++) hists.push(colourHistogram(await ctx.frame(i)));
      const mean = new Float64Array(64);
      for (const h of hists) for (let j = 0; j < 64; j++) mean[j]! += h[j]! / hists.length;
      let best = 0;
      for (let j = 1; j < hists.length; j++) if (l1(hists[j]!, mean) < l1(hists[best]!, mean)) best = j;
      out.push(lo + best);
    }
    return out;
  },
};
