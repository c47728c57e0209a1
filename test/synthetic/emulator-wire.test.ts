/** The emulator's reading of a request body: ASCII bodies take the one-copy latin1 path, others UTF-8. */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBody } from '../../src/synthetic/emulator/wire.js';

const asRequest = (chunks: Buffer[]) => Readable.from(chunks) as unknown as IncomingMessage;

describe('emulator readBody', () => {
  it('gives back the text sent, ASCII or not, whatever the chunking', async () => {
    for (const text of [
      JSON.stringify({ prompt: 'Rank these', url: `data:image/jpeg;base64,${'QUJD'.repeat(5000)}` }),
      JSON.stringify({ prompt: 'Amélie — “the best cover” ✓ 🎬' }),
    ]) {
      const bytes = Buffer.from(text, 'utf8');
      // split inside a multi-byte character too
      const chunks = [bytes.subarray(0, 23), bytes.subarray(23, 24), bytes.subarray(24)];
      expect(await readBody(asRequest(chunks))).toBe(text);
    }
  });
});
