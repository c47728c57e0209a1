/**
 * What the emulator "hears": the loudness of the attached WAV track over a stretch of time. It
 * cannot tell sounds apart; its fixed rule (see `compass.ts`, AMA and AVC) is on loudness alone.
 */

export interface AudioFeatures {
  /** The track's length in seconds. */
  seconds: number;
  /** RMS level in [0, 1] of the samples in [from_s, to_s) (0 outside the track). */
  level(from_s: number, to_s: number): number;
}

/** Below this RMS level a stretch is silent (the mini set's tone is ≈ 0.21). */
export const SOUND_LEVEL = 0.05;

/**
 * Read a 16-bit PCM WAV (what kfbench sends: mono, 16 kHz; any rate, the first channel); null for
 * anything else, which the emulator then does not hear.
 */
export function audioFeatures(wav: Buffer): AudioFeatures | null {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE')
    return null;
  let rate = 0;
  let channels = 1;
  let bits = 0;
  let off = 12;
  while (off + 8 <= wav.length) {
    const id = wav.toString('ascii', off, off + 4);
    const size = wav.readUInt32LE(off + 4);
    if (id === 'fmt ') {
      channels = wav.readUInt16LE(off + 10);
      rate = wav.readUInt32LE(off + 12);
      bits = wav.readUInt16LE(off + 22);
    } else if (id === 'data') {
      if (bits !== 16 || rate <= 0 || channels < 1) return null;
      const end = Math.min(wav.length, off + 8 + size);
      return pcmFeatures(wav.subarray(off + 8, end), rate, channels);
    }
    off += 8 + size + (size % 2);
  }
  return null;
}

function pcmFeatures(data: Buffer, rate: number, channels: number): AudioFeatures {
  const frames = Math.floor(data.length / (2 * channels));
  return {
    seconds: frames / rate,
    level(from_s, to_s) {
      const a = Math.max(0, Math.floor(from_s * rate));
      const b = Math.min(frames, Math.ceil(to_s * rate));
      if (b <= a) return 0;
      let sum = 0;
      for (let i = a; i < b; i++) {
        const v = data.readInt16LE(i * 2 * channels) / 32768;
        sum += v * v;
      }
      return Math.sqrt(sum / (b - a));
    },
  };
}
