/** A faststart mp4 (index first, as a streamed file has it) cut to half its bytes, as `head -c` would. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpegRun } from '../../src/media/ffmpeg.js';

/** 4.375 s of testsrc at 24 fps (105 frames listed by the container); returns both files. */
export async function truncatedMp4(dir: string): Promise<{ whole: string; cut: string }> {
  const whole = join(dir, 'whole.mp4');
  await ffmpegRun(
    [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=24', '-t', '4.375'],
      ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-movflags', '+faststart', '-y', whole],
    ],
    whole,
  );
  const cut = join(dir, 'cut.mp4');
  const bytes = readFileSync(whole);
  writeFileSync(cut, bytes.subarray(0, bytes.length >> 1));
  return { whole, cut };
}
