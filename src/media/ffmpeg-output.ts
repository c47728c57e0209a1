/**
 * Reading what ffmpeg and ffprobe say (for ffmpeg.ts, the file that starts them): the telling tail
 * of stderr, the error a failed start becomes, the lines that mean a damaged file.
 */
import { BackendError } from '../errors.js';

/** Keep the last `max` characters of a process's stderr: enough to explain a failure. */
export class StderrTail {
  private text = '';
  constructor(private readonly max = 8000) {}
  push(chunk: Buffer): void {
    this.text += chunk.toString('utf8');
    if (this.text.length > this.max * 2) this.text = this.text.slice(-this.max);
  }
  get value(): string {
    return this.text.slice(-this.max);
  }
  /** The most telling line: the last non-empty one that is not ffmpeg's generic exit notice. */
  reason(): string {
    const lines = this.value
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^Conversion failed|^Exiting normally/.test(l));
    return (lines[lines.length - 1] ?? 'no message').replace(/^\[[^\]]+\]\s*/, '');
  }
}

export function spawnError(bin: string, err: NodeJS.ErrnoException): Error {
  if (err.code === 'ENOENT') {
    return new BackendError(
      `${bin} was not found: install ffmpeg ≥ 5 (e.g. apt-get install -y ffmpeg) or set FFMPEG_PATH`,
      { cause: err },
    );
  }
  return new BackendError(`${bin} could not start: ${err.message}`, { cause: err });
}

/** What ffmpeg prints on stderr when it decodes a damaged or truncated file (often exiting 0). */
export const DECODE_ERROR =
  /Invalid NAL unit|error while decoding|Invalid data found|partial file|corrupt|missing picture|Error splitting|moov atom not found|Truncating packet|Packet corrupt|concealing|Invalid frame|decode_slice_header error|no frame!/i;
