/**
 * A copy of a video with its sound track replaced (the picture copied as it is): a lavfi audio
 * source (`sine=…`, `anullsrc=…`) as its track, or `null` for no audio stream at all.
 */
import { ffmpegRun } from '../../src/media/ffmpeg.js';

export const TONE = 'sine=frequency=440:sample_rate=44100';
export const SILENCE = 'anullsrc=channel_layout=mono:sample_rate=44100';

export async function withSoundTrack(src: string, to: string, source: string | null): Promise<void> {
  const args = [
    ...['-y', '-i', src],
    ...(source === null ? [] : ['-f', 'lavfi', '-i', source, '-shortest']),
    ...['-map', '0:v'],
    ...(source === null ? [] : ['-map', '1:a', '-c:a', 'aac']),
    ...['-c:v', 'copy', to],
  ];
  await ffmpegRun(args, src);
}
