/** What building the chains of a HeroFrame set takes (`buildChains`, and each film's build). */
import type { Embedder } from '../../embed/embedder.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import type { OnProgress } from '../../progress.js';
import type { Layout } from '../dataset/layout-map.js';

export const UNRESOLVED_PAIRS_READINGS = ['tie', 'error'] as const;
export type UnresolvedPairsReading = (typeof UNRESOLVED_PAIRS_READINGS)[number];

export interface BuildOptions {
  data: string;
  /** The layout map the dataset's files are read through (default: the built-in one). */
  layout?: Layout | undefined;
  lsmdc: string;
  stills: string;
  judge: Judge;
  encoder: ImageEncoder;
  chainsPerFilm?: number;
  seed?: number | string;
  /** Share of chains re-judged for stability (default 0.2). */
  stabilitySample?: number;
  ridge?: number;
  /**
   * How an unresolved pair (the judge contradicted itself) enters a chain's Bradley–Terry fit
   * (`--unresolved-pairs`): `error` (the default: no credit to either, left out of the fit — the
   * card's "counted as errors throughout, with no partial credit" read as covering the fit) or `tie`
   * (half a win each, kfbench's reading before issue 54). docs/heroframe.md, "Unresolved pairs in
   * the chain fit".
   */
  unresolvedPairs?: UnresolvedPairsReading;
  /** Phase `build`: one item per film. */
  onProgress?: OnProgress;
  /** Step 5: learn the rubric in rounds before the final build (`--learn-rubric`). */
  learnRubric?: boolean;
  rounds?: number;
  maxRules?: number;
  /** For the most dissimilar group (default: builtin). */
  embedder?: Embedder;
}
