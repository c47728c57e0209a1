/**
 * Cutting a raw pipe's byte stream (chunks of any size, ≤ 64 kB from a child's pipe) into
 * fixed-size frames: each frame is one buffer the caller owns, filled by copying the chunks'
 * bytes straight into it (no list of pieces, no concatenation).
 */
export class FrameCutter {
  private frame: Buffer | undefined;
  private at = 0;

  constructor(private readonly size: number) {}

  /** The frames `chunk` completes, in order. */
  *push(chunk: Uint8Array): Generator<Buffer, void, void> {
    const size = this.size;
    let o = 0;
    while (o < chunk.length) {
      this.frame ??= Buffer.allocUnsafe(size);
      const frame = this.frame;
      const n = Math.min(size - this.at, chunk.length - o);
      frame.set(n === chunk.length ? chunk : chunk.subarray(o, o + n), this.at);
      this.at += n;
      o += n;
      if (this.at === size) {
        this.frame = undefined;
        this.at = 0;
        yield frame;
      }
    }
  }

  /** Bytes of a frame begun and not completed. */
  get pendingBytes(): number {
    return this.at;
  }
}
