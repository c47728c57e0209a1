/**
 * A child's output read through a Unix socket (src/media/socket-frames.ts, how ffmpegRawFrames
 * reads a decoder): every byte arrives, in order, cut into frames; a frame left incomplete is
 * counted; nothing is read before `start`, even after the child has exited; and a consumer that
 * stops taking frames stops the child (back-pressure), instead of the frames piling up in memory.
 * And a decoder aborted while its socket opens starts nothing.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ffmpegRawFrames } from '../../src/media/ffmpeg-raw.js';
import { SocketFrames } from '../../src/media/socket-frames.js';
import { media } from '../support/paths.js';

/** A Node child writing `bytes` bytes (byte i = i mod 251) to its stdout, `out`. */
function writer(out: SocketFrames, bytes: number) {
  // the pattern repeats every 251 × 64 kB: written as slices of one buffer, hundreds of MB a second
  const code = `const n=${bytes},c=1<<16,p=Buffer.alloc(251*c);for(let k=0;k<p.length;k++)p[k]=k%251;let i=0;const next=()=>{while(i<n){const m=Math.min(c,n-i),o=i%p.length;i+=m;if(!process.stdout.write(p.subarray(o,o+m)))return process.stdout.once('drain',next);}};next();`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', out.childEnd, 'inherit'] });
  out.releaseChildEnd();
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, exited };
}

describe('SocketFrames', () => {
  it('delivers every byte in order, cut into frames, and counts an incomplete last frame', async () => {
    const size = 100_003;
    const out = await SocketFrames.open();
    const { exited } = writer(out, 37 * size + 11);
    // the child exits before anything is read: its output waits in the socket
    out.start(size);
    let n = 0;
    for await (const frame of out.frames()) {
      expect(frame.length).toBe(size);
      for (const k of [0, 1, size - 1]) expect(frame[k]).toBe((n * size + k) % 251);
      n++;
    }
    expect(n).toBe(37);
    expect(out.pendingBytes).toBe(11);
    expect(await exited).toBe(0);
    out.destroy();
  });

  it('nothing is read before start, even once the child has exited', async () => {
    const out = await SocketFrames.open();
    const { exited } = writer(out, 1000);
    expect(await exited).toBe(0);
    out.start(250);
    const frames = [];
    for await (const f of out.frames()) frames.push(f);
    expect(frames).toHaveLength(4);
    expect(frames[3]![249]).toBe(999 % 251);
    out.destroy();
  });

  it('a consumer that stops taking frames stops the writer (back-pressure)', async () => {
    const size = 1 << 20;
    const total = 256 * size;
    const out = await SocketFrames.open();
    const { child, exited } = writer(out, total);
    out.start(size);
    const it = out.frames();
    expect((await it.next()).done).toBe(false);
    // 256 MB cannot fit in a socket's buffers and the few frames kept: the writer waits for us
    await new Promise((r) => setTimeout(r, 500));
    expect(out.buffered).toBeLessThanOrEqual(4);
    expect(child.exitCode).toBe(null);
    let n = 1;
    for (let r = await it.next(); !r.done; r = await it.next()) n++;
    expect(n).toBe(256);
    expect(await exited).toBe(0);
    out.destroy();
  });

  it('a decoder aborted while its socket opens, or before, delivers no frame', async () => {
    const file = media('shots.mp4');
    // `-re`: in real time, 11 s, had it started
    const args = ['-re', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', '32x18', 'pipe:1'];
    const ac = new AbortController();
    const frames = ffmpegRawFrames({ args, frameBytes: 32 * 18, file, signal: ac.signal });
    const first = frames.next();
    ac.abort();
    await expect(first).rejects.toThrow(/cancelled/);
    const again = ffmpegRawFrames({ args, frameBytes: 32 * 18, file, signal: ac.signal });
    await expect(again.next()).rejects.toThrow(/cancelled/);
  });
});
