/** Write sampled frames of a video as JPEG files named by frame index. */
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.js';
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
  const written: SampledFile[] = [];
  for await (const f of streamFrames(info, req, opts.format ?? {}, opts.signal)) {
    const path = join(outDir, `${f.index}.jpg`);
    await writeFileAtomic(path, await encodeImage(f, { format: 'jpeg', quality: opts.quality ?? 92 }));
    written.push({ frame: f.index, time_s: f.time_s, path });
  }
  return written;
}
