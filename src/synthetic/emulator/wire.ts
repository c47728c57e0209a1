/** The emulator's side of the OpenAI chat-completions wire format: reading a request, writing a reply. */
import { isAscii } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ChatBody {
  model?: string;
  seed?: number;
  max_tokens?: number;
  messages?: {
    role: string;
    content:
      | string
      | {
          type: string;
          text?: string;
          image_url?: { url: string };
          input_audio?: { data?: string; format?: string };
        }[];
  }[];
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  // a body of base64 images is ASCII but for a few prompt characters: decoded as latin1 it is one copy
  return isAscii(body) ? body.toString('latin1') : body.toString('utf8');
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function completion(model: string, content: string, promptTokens: number): unknown {
  return {
    id: `emu-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: Math.ceil(content.length / 4),
      total_tokens: promptTokens + Math.ceil(content.length / 4),
    },
  };
}

/** What a chat request shows the emulator: its text parts joined, its images' bytes, its audio track's. */
export function chatParts(body: ChatBody): { text: string; images: Buffer[]; audio: Buffer | null } {
  const parts = (body.messages ?? []).flatMap((m) =>
    typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content,
  );
  const text = parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('\n');
  const audio = parts.find((p) => p.type === 'input_audio');
  const urls = parts.filter((p) => p.type === 'image_url').map((p) => p.image_url?.url ?? '');
  return {
    text,
    images: urls.map((u) => Buffer.from(u.slice(u.indexOf(',') + 1), 'base64')),
    audio: audio ? Buffer.from(audio.input_audio?.data ?? '', 'base64') : null,
  };
}
