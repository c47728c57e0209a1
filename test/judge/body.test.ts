import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { chatBody } from '../../src/judge/body.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import type { BackendRequest, JudgeImage } from '../../src/judge/types.js';

const image = (seed: string): JudgeImage => {
  const bytes = createHash('sha512').update(seed).digest();
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), mime: 'image/jpeg' };
};
const [a, b, c] = [image('a'), image('b'), image('c')];

/** The body as the `openai` SDK sent it: JSON.stringify of the request object, built in full each time. */
function sdkBody(model: string, r: BackendRequest): string {
  const content: unknown[] = [{ type: 'text', text: r.prompt }];
  r.images.forEach((img, i) => {
    content.push({ type: 'text', text: `Image ${r.labels[i] ?? i + 1}:` });
    content.push({
      type: 'image_url',
      image_url: { url: `data:${img.mime};base64,${img.bytes.toString('base64')}` },
    });
  });
  if (r.audio) {
    content.push({ type: 'text', text: 'Audio track:' });
    content.push({
      type: 'input_audio',
      input_audio: { data: r.audio.data.toString('base64'), format: r.audio.format },
    });
  }
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content }],
    temperature: r.sampling.temperature,
    max_tokens: r.sampling.max_tokens,
    ...(r.sampling.seed === undefined ? {} : { seed: r.sampling.seed }),
  });
}

const requests: BackendRequest[] = [
  {
    prompt: 'Rank "these" —\n{{x}} \u2028 images',
    images: [a, b, c],
    labels: ['1', '2'],
    protocol: 'listwise',
    sampling: { temperature: 0, max_tokens: 256 },
    attempt: 0,
  },
  {
    prompt: 'pair',
    images: [b, a],
    labels: ['A', 'B'],
    protocol: 'pairwise',
    sampling: { temperature: 0.7, max_tokens: 64, seed: 3 },
    attempt: 1,
  },
  {
    prompt: 'listen',
    images: [c],
    labels: ['1'],
    audio: { data: Buffer.from('RIFF....WAVE'), sha256: 'x', format: 'wav' },
    protocol: 'compass',
    sampling: { temperature: 0, max_tokens: 512 },
    attempt: 0,
  },
];

const servers: ReturnType<typeof createServer>[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

describe('the request body', () => {
  it('is byte for byte the SDK body (JSON.stringify of the whole request), images spliced in from a memo', () => {
    for (const model of ['kfbench-emulator', 'a "quoted"\u0000kfbench-content\u0000 model'])
      for (const r of requests) {
        expect(chatBody(model, r).toString('utf8')).toBe(sdkBody(model, r));
        expect(chatBody(model, r).toString('utf8')).toBe(sdkBody(model, r)); // the second time from the memo
      }
  });

  it('is what a real server on 127.0.0.1 receives, with the key as a bearer token', async () => {
    const got: { body: string; auth: string | undefined; url: string | undefined }[] = [];
    const server = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const ch of req) chunks.push(ch as Buffer);
      got.push({
        body: Buffer.concat(chunks).toString('utf8'),
        auth: req.headers.authorization,
        url: req.url,
      });
      const text = JSON.stringify({
        choices: [{ message: { content: '{"position": 1}' } }],
        usage: { prompt_tokens: 10, completion_tokens: 2 },
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const backend = new OpenAiBackend({
      model: 'm',
      baseUrls: [`http://127.0.0.1:${port}/v1/`],
      apiKey: 'k1',
    });
    for (const r of requests) {
      const reply = await backend.complete(r);
      expect(reply.text).toBe('{"position": 1}');
      expect(reply.usage).toEqual({ prompt_tokens: 10, completion_tokens: 2 });
    }
    await backend.close();
    expect(got.map((g) => g.body)).toEqual(requests.map((r) => sdkBody('m', r)));
    expect(got.every((g) => g.auth === 'Bearer k1' && g.url === '/v1/chat/completions')).toBe(true);
  });
});
