/**
 * Write sampled frames of a video as JPEG files named by frame index. The frames go into a
 * temporary folder inside the output folder and are moved into place only when the whole video
 * decoded: a truncated or damaged video leaves nothing behind (files already there are untouched).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeImage } from './image.js';
import { type FrameFormat, type FrameRequest, probe, streamFrames } from './video.js';

export interface SampledFile {
  frame: number;
  time_s: number;
  path: string;
}

export async function sampleToDir(
  video: string,
  req: FrameRequest,
  outDir: string,
  opts: { quality?: number; format?: FrameFormat; signal?: AbortSignal } = {},
): Promise<SampledFile[]> {
  const info = await probe(video);
  await mkdir(outDir, { recursive: true });
  const tmp = join(outDir, `.kfbench-sample-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  await mkdir(tmp);
  const written: SampledFile[] = [];
  try {
    for await (const f of streamFrames(info, req, opts.format ?? {}, opts.signal)) {
      const name = `${f.index}.jpg`;
      await writeFile(join(tmp, name), await encodeImage(f, { format: 'jpeg', quality: opts.quality ?? 92 }));
      written.push({ frame: f.index, time_s: f.time_s, path: join(outDir, name) });
    }
    for (const name of new Set(written.map((w) => `${w.frame}.jpg`)))
      await rename(join(tmp, name), join(outDir, name));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return written;
}
