/**
 * Media the viewer makes from the videos it was given: single frames (the matched frame beside a
 * keyframe) and WebM proxies for videos the browser cannot play. Made with ffmpeg on first request,
 * cached on disk by the source's path, size and mtime, written to a temp file and renamed; one
 * job per item, and at most one ffmpeg per core at a time.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Semaphore } from '../concurrency/semaphore.js';
import { frameJpegAt, type Playability, playability, writeWebmProxy } from '../media/playback.js';
import { writeFileAtomic } from '../store/atomic-write.js';

export type ProxyMode = 'auto' | 'always' | 'never';
export const PROXY_MODES: ProxyMode[] = ['auto', 'always', 'never'];

export type Derived =
  | { kind: 'frame'; video: string; t: number; width: number }
  | { kind: 'proxy'; video: string; hasAudio: boolean };

export class MediaCache {
  private readonly jobs = new Map<string, Promise<string>>();
  private readonly probes = new Map<string, Promise<Playability>>();
  /** ffmpeg processes at once (a page of twelve keyframes asks for twelve frames together). */
  private readonly slots: Semaphore;

  constructor(
    readonly dir: string,
    readonly proxy: ProxyMode,
    jobs = availableParallelism(),
  ) {
    this.slots = new Semaphore(Math.max(1, jobs));
  }

  /** A stable name for a derived item (its URL under `derived/`). */
  name(d: Derived): string {
    const s = statSync(d.video);
    const key = JSON.stringify({ ...d, size: s.size, mtime: s.mtimeMs });
    const h = createHash('sha256').update(key).digest('hex').slice(0, 24);
    return d.kind === 'frame' ? `${h}.jpg` : `${h}.webm`;
  }

  playability(video: string): Promise<Playability> {
    let p = this.probes.get(video);
    if (!p) {
      p = playability(video);
      this.probes.set(video, p);
      p.catch(() => this.probes.delete(video));
    }
    return p;
  }

  /** Whether the page should point at a proxy rather than the file itself. */
  async needsProxy(video: string): Promise<{ proxy: boolean; hasAudio: boolean; codec: string }> {
    const p = await this.playability(video);
    const proxy = this.proxy === 'always' || (this.proxy === 'auto' && !p.playable);
    return { proxy, hasAudio: p.hasAudio, codec: p.codec };
  }

  /**
   * The cached file for `d`, made now if missing; null when what lies at its name in the cache
   * folder is not a regular file of its own — a symlink planted there (to /etc/shadow, say), a
   * FIFO, a folder — which is never served nor followed (issue 46 item 9).
   */
  file(d: Derived): Promise<string | null> {
    const name = this.name(d);
    const out = join(this.dir, name);
    const there = lstatOrUndefined(out);
    if (there) return Promise.resolve(there.isFile() ? out : null);
    let job = this.jobs.get(name);
    if (!job) {
      job = this.make(d, out).finally(() => this.jobs.delete(name));
      this.jobs.set(name, job);
    }
    return job;
  }

  private async make(d: Derived, out: string): Promise<string> {
    const release = await this.slots.acquire();
    try {
      return await this.makeNow(d, out);
    } finally {
      release();
    }
  }

  private async makeNow(d: Derived, out: string): Promise<string> {
    mkdirSync(this.dir, { recursive: true });
    if (d.kind === 'frame') {
      await writeFileAtomic(out, await frameJpegAt(d.video, d.t, d.width));
      return out;
    }
    const tmp = `${out}.${process.pid}.tmp.webm`;
    try {
      await writeWebmProxy(d.video, tmp, d.hasAudio);
      renameSync(tmp, out);
    } finally {
      rmSync(tmp, { force: true });
    }
    return out;
  }
}

/** `lstat` (the link itself, not what it points to), or undefined when nothing is there. */
function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
