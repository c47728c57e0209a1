/** What a HeroFrame evaluation takes (`evaluate`, and the input checks before it). */
import type { ImageEncoder } from '../../judge/images.js';
import type { DisagreementRule, InsertionProtocol } from '../../judge/insertion.js';
import type { Judge } from '../../judge/judge.js';
import type { OnProgress } from '../../progress.js';
import type { Shard } from '../../store/shards.js';
import type { Layout } from '../dataset/layout-map.js';

export type StillsRule = 'all' | 'surviving';
export const STILLS_RULES: StillsRule[] = ['all', 'surviving'];

export interface SubmittedMethod {
  method: string;
  /** Where its frames come from: a selections file, or the official rows of baselines.jsonl. */
  file: string;
}

export interface EvaluateOptions {
  data: string;
  /** The layout map, resolved once by the CLI (`--layout`, else `KFBENCH_HERO_LAYOUT`); default the built-in one. */
  layout?: Layout | undefined;
  track: string;
  methods: SubmittedMethod[];
  judge: Judge;
  encoder: ImageEncoder;
  protocol?: InsertionProtocol;
  /** Listwise: ask each insertion a second time with the chain shown worst first. */
  bothOrders?: boolean;
  /** Listwise with both orders: how a disagreement is scored (default `error`). */
  disagreement?: DisagreementRule;
  includeStills?: boolean;
  /**
   * Which publicity stills the `stills` row scores: `all` (default, the card's "Human publicity
   * stills reach 0.722": every still of the film, the ones the still floor deleted too) or
   * `surviving` (only stills that are in some chain of the film).
   */
  stills?: StillsRule;
  /** The publicity stills folder `hero build` read (`<dir>/<movie_id>/<image_id>.jpg`): the deleted stills' images. */
  stillsDir?: string | undefined;
  rescoreOfficial?: boolean;
  /**
   * `--prompt-template FILE`: the reader's listwise prompt as a template (reader-prompt.ts); default
   * the one derived from the release's eval/judge_prompt_example.md, else kfbench's own wording.
   */
  promptTemplate?: string | undefined;
  missing?: 'error' | 'zero';
  maxCalls?: number | undefined;
  seed?: number | string;
  bootstrapB?: number;
  concurrency?: number;
  /** Only these films (`--movies`), and of them one shard (`--shard k/n`, see store/shards.ts). */
  movies?: string[] | undefined;
  shard?: Shard | undefined;
  /** Ctrl-C: no insertion starts and no judge call is made after it aborts. */
  signal?: AbortSignal | undefined;
  /** Phase `evaluate`: one item per insertion (a cache hit when it needed no new call). */
  onProgress?: OnProgress;
}
