/**
 * The photographic proxies HeroFrame-Bench criticises ("exposure and focus are not what makes an
 * image work as a cover"): sharpest, best exposed, most colourful — top k, spread over the film.
 */
import { allStats, type SelectionMethod, spreadGap, topKSpread } from './method.js';

export const sharpest: SelectionMethod = {
  name: 'sharpest',
  description: 'the k sharpest frames (mean |Laplacian|), spread over the film — the focus proxy',
  async select(ctx) {
    return topKSpread(
      (await allStats(ctx)).map((s) => s.sharpness),
      ctx.k,
      spreadGap(ctx),
    );
  },
};

export const exposure: SelectionMethod = {
  name: 'exposure',
  description:
    'the k frames whose brightness and contrast are closest to a well-exposed frame (mean 0.5, contrast 0.45) — the exposure proxy',
  async select(ctx) {
    const st = await allStats(ctx);
    return topKSpread(
      st.map((s) => -Math.hypot(s.brightness - 0.5, s.contrast - 0.45)),
      ctx.k,
      spreadGap(ctx),
    );
  },
};

export const colourful: SelectionMethod = {
  name: 'colourful',
  description: 'the k most colourful frames (Hasler & Süsstrunk colourfulness), spread over the film',
  async select(ctx) {
    return topKSpread(
      (await allStats(ctx)).map((s) => s.colourfulness),
      ctx.k,
      spreadGap(ctx),
    );
  },
};
