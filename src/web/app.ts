/**
 * The viewer's HTTP routes (hono), read-only: pages rendered from the loaded data, the files that
 * data names (an allow-list built at start; dotfiles and the rest of a folder are 404) from the
 * roots it was given (with byte ranges, so the browser can seek videos), derived media under
 * names a page produced, and our own CSS/JS. Anything else — other methods, `..`, paths outside a
 * root, unknown names — is a 404 (405 for writes). A request whose Host header is not one the
 * server answers to is a 403 before anything else (a page on another site reaching 127.0.0.1
 * through DNS rebinding sends its own host name).
 */
import { createReadStream, constants as fsConstants, openSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { packageRoot } from '../store/package-root.js';
import { renderPage } from './render.js';
import { ROOT_NAMES, type RootName, type Site } from './site.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
};
const contentType = (file: string) => TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export const VIEWER_ASSETS = ['viewer.css', 'viewer.js'];
export const assetPath = (name: string) => join(packageRoot(), 'assets', 'web', name);

function notFound(): Response {
  return new Response('not found\n', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS },
  });
}

/** A file response honouring a single `Range: bytes=a-b`. */
function fileResponse(file: string, range: string | undefined, method: string): Response {
  const size = statSync(file).size;
  const headers: Record<string, string> = {
    'Content-Type': contentType(file),
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'no-cache',
    ...SECURITY_HEADERS,
  };
  let start = 0;
  let end = size - 1;
  let status = 200;
  const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (range && m && (m[1] || m[2])) {
    if (m[1]) {
      start = Number(m[1]);
      end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
    } else {
      start = Math.max(0, size - Number(m[2]));
    }
    if (start > end || start >= size)
      return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } });
    status = 206;
    headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  }
  headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
  if (method === 'HEAD' || size === 0) return new Response(null, { status, headers });
  let fd: number;
  try {
    // O_NOFOLLOW: a file checked as a regular file is not swapped for a link before it is read
    fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  } catch {
    return notFound();
  }
  const body = Readable.toWeb(
    createReadStream('', { fd, start, end, highWaterMark: 1 << 20 }),
  ) as ReadableStream;
  return new Response(body, { status, headers });
}

/** The path of a request as sent, split into decoded segments (null if it cannot be decoded). */
function segments(url: string): string[] | null {
  try {
    return new URL(url).pathname
      .split('/')
      .slice(1)
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

export interface ViewerAppOptions {
  /** Whether a request's Host header names this server; absent: every host is accepted. */
  hostAllowed?: (host: string | undefined) => boolean;
}

export function viewerApp(site: Site, o: ViewerAppOptions = {}): Hono {
  const app = new Hono();
  app.all('*', async (c) => {
    if (o.hostAllowed && !o.hostAllowed(c.req.header('host')))
      return new Response('forbidden: this viewer answers only to its own address (Host header)\n', {
        status: 403,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS },
      });
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD')
      return new Response('read-only\n', { status: 405, headers: { Allow: 'GET, HEAD' } });
    const segs = segments(c.req.url);
    if (!segs) return notFound();
    const range = c.req.header('range');
    const [head, ...rest] = segs;
    if (head === 'files' && rest.length >= 2) {
      const root = rest[0] as RootName;
      if (!ROOT_NAMES.includes(root)) return notFound();
      // only a file the loaded data names (the allow-list), never the rest of its folder
      const file = site.servable(root, rest.slice(1).join('/'));
      return file ? fileResponse(file, range, method) : notFound();
    }
    if (head === 'derived' && rest.length === 1) {
      const d = site.derivedItem(rest[0]!);
      if (!d) return notFound();
      try {
        const file = await site.media.file(d);
        return file ? fileResponse(file, range, method) : notFound();
      } catch (e) {
        return new Response(`could not make ${rest[0]}: ${(e as Error).message}\n`, {
          status: 500,
          headers: { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS },
        });
      }
    }
    if (head === 'assets' && rest.length === 1 && VIEWER_ASSETS.includes(rest[0]!))
      return fileResponse(assetPath(rest[0]!), range, method);
    if (segs.length === 1) {
      let html: string | null;
      try {
        html = await renderPage(site, head ?? '');
      } catch (e) {
        return new Response(`could not render ${head}: ${(e as Error).message}\n`, {
          status: 500,
          headers: { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS },
        });
      }
      if (html !== null)
        return new Response(method === 'HEAD' ? null : html, {
          headers: {
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': 'no-cache',
            ...SECURITY_HEADERS,
          },
        });
    }
    return notFound();
  });
  return app;
}
