/**
 * File hashes for one run (sha256 of the bytes, read once per run and path: a file rewritten
 * between two runs is hashed again). One run's scan-cache key, judge-segmentation entry and
 * grouped-judge entries share one, so a warm `compass evaluate` reads each video once.
 */
import { sha256File } from './canonical.js';

export class FileHashes {
  private readonly memo = new Map<string, Promise<string>>();
  /** Files read so far (a test counts them). */
  reads = 0;
  of(path: string): Promise<string> {
    let h = this.memo.get(path);
    if (!h) {
      this.reads++;
      h = sha256File(path);
      this.memo.set(path, h);
      h.catch(() => this.memo.delete(path));
    }
    return h;
  }
}
