/**
 * The mini Compass videos' sound track, made in memory (no randomness, so a build is
 * byte-identical): a 440 Hz tone while the picture holds still (a keyframe shown, or a frozen
 * picture), silence while it slides from one image to the next — sound and picture agree in time,
 * which is what AV Coordination judges ("intrinsic audio–video semantic and temporal agreement
 * independently of the prompt", KeyFrame-Compass App. D). The `audio-lag` fault plays the same
 * track late (`lag` frames), so the tone sounds while the picture moves.
 */

/** 48 kHz: a whole number of samples per frame at 24 fps (2,000). */
const SOUND_RATE = 48_000;
const TONE_HZ = 440;
const AMPLITUDE = 0.3;
/** Fade in and out over 5 ms, so an edge does not click. */
const FADE_S = 0.005;

/**
 * A mono 16-bit PCM WAV as long as `still` is frames at `fps`: frame f sounds when frame f − lag
 * holds still.
 */
export function soundtrack(still: readonly boolean[], fps: number, lag = 0): Buffer {
  const per = SOUND_RATE / fps;
  const frames = still.length;
  const on = (f: number) => still[f - lag] === true;
  const pcm = Buffer.alloc(Math.round(frames * per) * 2);
  const fade = Math.round(FADE_S * SOUND_RATE);
  for (let f = 0; f < frames; f++) {
    if (!on(f)) continue;
    const from = Math.round(f * per);
    const to = Math.round((f + 1) * per);
    for (let i = from; i < to; i++) {
      // fade in after a silent frame, out before one
      const edge = Math.min(fade, on(f - 1) ? fade : i - from + 1, on(f + 1) ? fade : to - i);
      const v = Math.sin((2 * Math.PI * TONE_HZ * i) / SOUND_RATE) * ((AMPLITUDE * edge) / fade);
      pcm.writeInt16LE(Math.round(v * 32767), i * 2);
    }
  }
  return Buffer.concat([wavHeader(pcm.length), pcm]);
}

function wavHeader(bytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + bytes, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(SOUND_RATE, 24);
  h.writeUInt32LE(SOUND_RATE * 2, 28); // bytes per second
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(bytes, 40);
  return h;
}
