/**
 * Write sampled frames of a video as JPEG files named by frame index. The frames go into a
 * staging folder beside the output folder and are moved into place only when the whole video
 * decoded: a truncated or damaged video, or a full disk, leaves nothing behind — not even an empty
 * output folder (files already there are untouched).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { environmentError } from '../store/fs-errors.js';
import { type FolderFile, writeOutputFolder } from '../store/out-folder.js';
import type { FrameRequest } from './frame-plan.js';
import { type FrameFormat, streamFrames } from './frames.js';
import { encodeImage } from './image.js';
import { probe } from './probe.js';

/** What `sampleToDir` writes (`--help` lists it). */
export const SAMPLE_FILE = {
  name: '<frame>.jpg',
  what: 'one JPEG per sampled frame, named by its frame index',
} as const satisfies FolderFile;

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
  return writeOutputFolder(
    outDir,
    async (stage) => {
      const written: SampledFile[] = [];
      for await (const f of streamFrames(info, req, opts.format ?? {}, opts.signal)) {
        const name = SAMPLE_FILE.name.replace('<frame>', String(f.index));
        const jpeg = await encodeImage(f, { format: 'jpeg', quality: opts.quality ?? 92 });
        try {
          await writeFile(join(stage, name), jpeg);
        } catch (e) {
          throw environmentError(e, join(outDir, name));
        }
        written.push({ frame: f.index, time_s: f.time_s, path: join(outDir, name) });
      }
      return written;
      // frames of an earlier run (other times) are not kept beside the new ones (issue 55)
    },
    { replaces: (name) => /^\d+\.jpg$/.test(name) },
  );
}
