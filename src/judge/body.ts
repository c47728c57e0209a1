/**
 * The JSON body of one chat-completions request, as UTF-8 bytes. Byte for byte what
 * `JSON.stringify({ model, messages: [{ role: 'user', content }], temperature, max_tokens, seed })`
 * gives (test/judge/body.test.ts compares), but each image's part — its base64 data URL, the bulk
 * of a request — is serialised and encoded once per image object and copied in, not built, measured
 * and encoded again for every request.
 */
import type { BackendRequest, JudgeImage } from './types.js';

/** A placeholder for the content list in the serialised skeleton (no prompt or model can hold it). */
const CONTENT = '\u0000kfbench-content\u0000';
const CONTENT_JSON = JSON.stringify(CONTENT);

const imageParts = new WeakMap<JudgeImage, Buffer>();
const text = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
const COMMA = Buffer.from(',');

/** The image's content part, `{"type":"image_url","image_url":{"url":"data:…"}}`, built once per image. */
function imagePart(img: JudgeImage): Buffer {
  let p = imageParts.get(img);
  if (!p) {
    p = text({
      type: 'image_url',
      image_url: { url: `data:${img.mime};base64,${img.bytes.toString('base64')}` },
    });
    imageParts.set(img, p);
  }
  return p;
}

/** The content list: the prompt, then each image after its label, then any audio track. */
function contentParts(req: BackendRequest): Buffer[] {
  const parts: Buffer[] = [text({ type: 'text', text: req.prompt })];
  req.images.forEach((img, i) => {
    parts.push(text({ type: 'text', text: `Image ${req.labels[i] ?? i + 1}:` }));
    parts.push(imagePart(img));
  });
  if (req.audio) {
    parts.push(text({ type: 'text', text: 'Audio track:' }));
    parts.push(
      text({
        type: 'input_audio',
        input_audio: { data: req.audio.data.toString('base64'), format: req.audio.format },
      }),
    );
  }
  return parts;
}

/** The request body for `model` (seed only when the sampling has one). */
export function chatBody(model: string, req: BackendRequest): Buffer {
  const skeleton = JSON.stringify({
    model,
    messages: [{ role: 'user', content: CONTENT }],
    temperature: req.sampling.temperature,
    max_tokens: req.sampling.max_tokens,
    ...(req.sampling.seed === undefined ? {} : { seed: req.sampling.seed }),
  });
  const at = skeleton.lastIndexOf(CONTENT_JSON); // after the model name: only numbers follow it
  const parts = contentParts(req);
  const list: Buffer[] = [Buffer.from(`${skeleton.slice(0, at)}[`, 'utf8')];
  for (const [i, p] of parts.entries()) {
    if (i > 0) list.push(COMMA);
    list.push(p);
  }
  list.push(Buffer.from(`]${skeleton.slice(at + CONTENT_JSON.length)}`, 'utf8'));
  return Buffer.concat(list);
}
