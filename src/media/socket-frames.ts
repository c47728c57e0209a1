/**
 * A child process's raw output read through a Unix socket into one reused buffer, cut into
 * fixed-size frames. Node reads a pipe into a new 64 kB buffer per read; for a decoder's frames
 * that is ≈ 850 buffers per 10 s of 512×288 video, each counted as external memory, and it is
 * that churn that brings on most of a scan's full garbage collections. A socket can be read into a
 * buffer of our own (`net`'s `onread`), so only the frames themselves are allocated (bench/RESULTS.md:
 * about half of node's own CPU for the reading).
 *
 * `childEnd` is handed to the child as an stdio entry (its descriptor is duplicated into the child);
 * this process's copy is closed with `releaseChildEnd` once the child is spawned, so that the
 * reader sees the end of the output when the child closes its copy (exits).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackendError } from '../errors.js';
import { FrameCutter } from './frame-cutter.js';

/** Bytes the socket is read into at a time (one buffer, reused). */
const READ_BYTES = 256 << 10;
/** Frames cut and not yet taken before reading pauses (back-pressure up to the child). */
const HIGH_WATER = 4;

export class SocketFrames {
  private cut: FrameCutter | undefined;
  private readonly ready: Buffer[] = [];
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  private constructor(
    private readonly reader: net.Socket,
    readonly childEnd: net.Socket,
  ) {
    const done = () => {
      this.ended = true;
      this.notify();
    };
    reader.on('end', done);
    reader.on('close', done);
    reader.on('error', (e) => {
      this.failure = e;
      done();
    });
  }

  /**
   * A connected socket pair; nothing is read until `start`. The socket file lies in a directory of
   * its own that only this user can enter (mkdtemp, mode 0700), removed once the two ends are
   * connected, so no other user's process can take the child's end in between. (Unix sockets: Linux
   * and macOS.) A failure is a BackendError.
   */
  static async open(): Promise<SocketFrames> {
    const dir = mkdtempSync(join(tmpdir(), 'kfbench-'));
    const path = join(dir, 's');
    // the accepted end is the child's: this process never reads it
    const server = net.createServer({ pauseOnConnect: true });
    let reader: net.Socket | undefined;
    let childEnd: net.Socket | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, resolve);
      });
      const accepted = new Promise<net.Socket>((resolve) =>
        server.once('connection', (socket: net.Socket) => {
          childEnd = socket;
          resolve(socket);
        }),
      );
      let self: SocketFrames | undefined;
      reader = net.connect({
        path,
        onread: {
          buffer: Buffer.allocUnsafe(READ_BYTES),
          callback: (n: number, buf: Uint8Array) => self!.take(buf.subarray(0, n)),
        },
      });
      reader.pause();
      const r = reader;
      const connected = new Promise<void>((resolve, reject) => {
        r.once('connect', resolve);
        r.once('error', reject);
      });
      await Promise.all([accepted, connected]);
      self = new SocketFrames(r, childEnd!);
      return self;
    } catch (e) {
      reader?.destroy();
      childEnd?.destroy();
      throw new BackendError(`cannot open a socket for a decoder's output (${(e as Error).message})`, {
        cause: e,
      });
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Close this process's copy of the child's end (once the child has it, or when it was not started). */
  releaseChildEnd(): void {
    this.childEnd.destroy();
  }

  /** Start reading, frames of `frameBytes`. */
  start(frameBytes: number): void {
    this.cut = new FrameCutter(frameBytes);
    this.reader.resume();
  }

  /** The frames, in order, until the child's output ends; a socket error is thrown as a BackendError. */
  async *frames(): AsyncGenerator<Buffer, void, void> {
    for (;;) {
      const frame = this.ready.shift();
      if (frame) {
        if (this.reader.isPaused() && this.ready.length < HIGH_WATER && !this.ended) this.reader.resume();
        yield frame;
        continue;
      }
      if (this.ended) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    if (this.failure)
      throw new BackendError(`reading a decoder's output failed (${this.failure.message})`, {
        cause: this.failure,
      });
  }

  /** Frames cut and not yet taken (at most `HIGH_WATER` + the frames one read completes). */
  get buffered(): number {
    return this.ready.length;
  }

  /** Bytes of a frame begun and not completed. */
  get pendingBytes(): number {
    return this.cut?.pendingBytes ?? 0;
  }

  /** Stop reading and close the socket. */
  destroy(): void {
    this.reader.destroy();
    this.childEnd.destroy();
  }

  /** Bytes read into the reused buffer: cut into frames; false pauses reading. */
  private take(chunk: Uint8Array): boolean {
    for (const frame of this.cut!.push(chunk)) this.ready.push(frame);
    this.notify();
    if (this.ready.length < HIGH_WATER) return true;
    // (returning false stops reading; `pause` keeps the stream's own state in step, so `resume` restarts it)
    this.reader.pause();
    return false;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
