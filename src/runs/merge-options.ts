import type { Layout } from '../hero/dataset/layout-map.js';

/** What `kfbench merge hero|compass` takes: the shard folders and the merged folder (never one of them). */
export interface MergeOptions {
  /** The shards' output folders (`--out` of each `--shard k/n` run). */
  dirs: readonly string[];
  /** The merged folder, written whole or not at all. */
  out: string;
  /** `merge hero`: the layout map of the dataset the shards name (default: the built-in one). */
  layout?: Layout | undefined;
}
