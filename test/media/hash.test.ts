import { describe, expect, it } from 'vitest';
import { streamFrames } from '../../src/media/frames.js';
import { dhash, dhashFile, hamming } from '../../src/media/hash.js';
import { probe } from '../../src/media/probe.js';
import { media } from '../support/paths.js';
import { mediaReferences } from '../support/references.js';

const refs = mediaReferences();

describe('dHash against imagehash.dhash over PIL (scripts/media-references.py)', () => {
  const names = Object.keys(refs.dhash);
  it.each(names.filter((n) => n.endsWith('.png')))('%s: bit for bit', async (name) => {
    expect(await dhashFile(media(name))).toBe(refs.dhash[name]);
  });
  it.each(names.filter((n) => n.endsWith('.jpg')))(
    '%s: within Hamming 2 (JPEG decoders may differ)',
    async (name) => {
      expect(hamming(await dhashFile(media(name)), refs.dhash[name]!)).toBeLessThanOrEqual(2);
    },
  );

  it('video frames selected by exact number hash like ffmpeg-extracted PNGs', async () => {
    for (const video of ['shots.mp4', 'rational.mp4']) {
      const rows = refs.video_dhash.filter((r) => r.video === video);
      const info = await probe(media(video));
      const got = new Map<number, string>();
      for await (const f of streamFrames(info, { kind: 'indices', indices: rows.map((r) => r.frame) })) {
        got.set(f.index, dhash(f));
      }
      for (const r of rows)
        expect(hamming(got.get(r.frame)!, r.dhash), `${video}#${r.frame}`).toBeLessThanOrEqual(1);
    }
  });
});

describe('hamming', () => {
  it('counts differing bits', () => {
    expect(hamming('0000000000000000', '0000000000000000')).toBe(0);
    expect(hamming('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hamming('8000000000000001', '0000000000000000')).toBe(2);
    expect(hamming('5414589aab6fa785', '5414589aab4fa785')).toBe(1);
  });
  it('rejects hashes of different length', () => {
    expect(() => hamming('00', '000')).toThrow(/length/);
  });
});
