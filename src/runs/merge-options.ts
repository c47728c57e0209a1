/** What `kfbench merge hero|compass` takes: the shard folders and the merged folder (never one of them). */
export interface MergeOptions {
  /** The shards' output folders (`--out` of each `--shard k/n` run). */
  dirs: readonly string[];
  /** The merged folder, written whole or not at all. */
  out: string;
}
