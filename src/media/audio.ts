/**
 * A video's audio track for a judge that accepts audio: mono 16 kHz 16-bit WAV (what speech and
 * sound-event models expect), at most `maxSeconds` long. A video without audio gives null.
 */
import { createHash } from 'node:crypto';
import { ffmpegBytes } from './ffmpeg.js';
import type { VideoInfo } from './video-info.js';

export interface AudioTrack {
  data: Buffer;
  sha256: string;
  format: 'wav';
  seconds: number;
}

export async function extractAudio(info: VideoInfo, maxSeconds = 120): Promise<AudioTrack | null> {
  if (!info.has_audio) return null;
  const data = await ffmpegBytes(
    [
      '-i',
      info.file,
      '-vn',
      '-map',
      '0:a:0',
      '-t',
      String(maxSeconds),
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      'pipe:1',
    ],
    info.file,
  );
  fixWavSizes(data);
  return {
    data,
    sha256: createHash('sha256').update(data).digest('hex'),
    format: 'wav',
    seconds: Math.min(info.duration_s, maxSeconds),
  };
}

/**
 * ffmpeg cannot seek back on a pipe to write a WAV's chunk sizes; set them from the bytes we have
 * (RIFF size at offset 4, the `data` chunk's size after its tag) so strict readers accept the file.
 */
function fixWavSizes(wav: Buffer): void {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF') return;
  wav.writeUInt32LE(wav.length - 8, 4);
  let off = 12;
  while (off + 8 <= wav.length) {
    const id = wav.toString('ascii', off, off + 4);
    if (id === 'data') {
      wav.writeUInt32LE(wav.length - off - 8, off + 4);
      return;
    }
    off += 8 + wav.readUInt32LE(off + 4);
  }
}
