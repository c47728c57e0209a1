/**
 * Image hashes remembered in the judge cache: a later run builds its questions' keys from the
 * remembered sha256 without encoding the images, encodes only the images of questions it asks,
 * and sends them byte for byte as the first run did.
 */
import { createHash } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JudgeCache } from '../../src/judge/cache.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { listwiseQuestion } from '../../src/judge/insertion.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import { media, tempDir } from '../support/paths.js';

const FILES = ['astronaut.png', 'coffee.png', 'base.png', 'mandel.png'];

/** One run: a judge on `cache`, an encoder remembering into it, the emulator's requests since `from`. */
async function run(file: string, url: string, dir: string, chains: string[][]) {
  const cache = new JudgeCache(file);
  const encoder = new ImageEncoder(64, undefined, cache);
  const judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [url] }), { cache });
  try {
    const verdicts = [];
    for (const names of chains) {
      const imgs = await Promise.all(names.map((n) => encoder.fromFile(join(dir, n))));
      verdicts.push(await judge.ask(listwiseQuestion(imgs.at(-1)!, imgs.slice(0, -1), 'rank')));
    }
    return { verdicts, encoded: encoder.encoded, calls: judge.stats.calls };
  } finally {
    await judge.close();
    cache.close();
  }
}

describe('image hashes in the judge cache', () => {
  it('a second run encodes only what it asks, with the keys and the bytes of the first', async () => {
    const dir = tempDir('image-hashes-');
    for (const f of FILES) copyFileSync(media(f), join(dir, f));
    const emu = await startEmulator();
    const file = join(dir, 'cache.sqlite');
    try {
      const first = await run(file, emu.url, dir, [FILES.slice(0, 3)]);
      expect(first).toMatchObject({ encoded: 3, calls: 1 });
      const sentFirst = emu.log[0]!.key; // the emulator's hash of the prompt and the image bytes it got

      // the same question: answered from the cache, nothing encoded
      const again = await run(file, emu.url, dir, [FILES.slice(0, 3)]);
      expect(again).toMatchObject({ encoded: 0, calls: 0 });
      expect(again.verdicts[0]!.key).toBe(first.verdicts[0]!.key);

      // a new question of two known images and a new one: the known two are encoded when it is asked
      const mixed = await run(file, emu.url, dir, [[FILES[0]!, FILES[1]!, FILES[3]!]]);
      expect(mixed).toMatchObject({ encoded: 3, calls: 1 });
      // the bytes sent are the ones a run without the memo sends (the same question, no cache at all)
      const plain = new ImageEncoder(64);
      const imgs = await Promise.all(
        [FILES[0]!, FILES[1]!, FILES[3]!].map((n) => plain.fromFile(join(dir, n))),
      );
      const judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url] }));
      await judge.ask(listwiseQuestion(imgs[2]!, imgs.slice(0, 2), 'rank'));
      await judge.close();
      expect(emu.log.map((l) => l.key)).toEqual([sentFirst, emu.log[1]!.key, emu.log[1]!.key]);
    } finally {
      await emu.close();
    }
  });

  it('a remembered hash an image no longer encodes to stops the question, naming the image', async () => {
    const dir = tempDir('image-hashes-');
    copyFileSync(media('coffee.png'), join(dir, 'a.png'));
    copyFileSync(media('base.png'), join(dir, 'b.png'));
    const emu = await startEmulator();
    const file = join(dir, 'cache.sqlite');
    try {
      await run(file, emu.url, dir, [['a.png', 'b.png']]);
      const c = new JudgeCache(file);
      const n = c.db
        .prepare('UPDATE judge_image_hashes SET sha256 = ?')
        .run(createHash('sha256').update('x').digest('hex'));
      expect(n.changes).toBe(2);
      c.close();
      await expect(run(file, emu.url, dir, [['b.png', 'a.png']])).rejects.toThrow(
        /[ab]\.png encodes to .*judge_image_hashes/,
      );
      expect(emu.log).toHaveLength(1);
    } finally {
      await emu.close();
    }
  });
});
