/**
 * Reading two raw outputs of one ffmpeg process in step (the Compass scan's frame at the pixel
 * size on pipe:1, its small copy for the embedder on pipe:3): frame i of each, as a pair.
 */
import { BadInputError } from '../errors.js';
import { ffmpegRawFrames, type RawPipeOptions } from './ffmpeg-raw.js';

/**
 * Frames of two outputs of one ffmpeg process, in pairs. Neither output may block the other:
 * ffmpeg does not write them in step (one can run several frames ahead, e.g. behind a stacking
 * filter's frame sync), so the second (`pipe:3`) is read as it flows, and the first (`pipe:1`)
 * is read on while the second's frame i has not come — only a first output that is ahead, with
 * its partner frames waiting, is left unread (back-pressure for the whole process). Memory holds
 * the frames one output is ahead by. Both outputs carry the same frames: one left without its
 * partner at the end means the process stopped in the middle, an error.
 */
export async function* ffmpegRawFramePairs(
  opts: Omit<RawPipeOptions, 'side'> & { sideFrameBytes: number },
): AsyncGenerator<[Buffer, Buffer], void, void> {
  const first: Buffer[] = [];
  const second: Buffer[] = [];
  for await (const frame of ffmpegRawFrames({
    ...opts,
    side: { frameBytes: opts.sideFrameBytes, onFrame: (f) => second.push(f) },
  })) {
    first.push(frame);
    while (first.length && second.length) yield [first.shift()!, second.shift()!];
  }
  // the process has exited (and passed its checks): the second's last frames are all here
  while (first.length && second.length) yield [first.shift()!, second.shift()!];
  if (first.length || second.length)
    throw new BadInputError('decoder stopped in the middle of a frame', { file: opts.file });
}
