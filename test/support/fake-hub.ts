/**
 * A model hub on 127.0.0.1 (a real HTTP server) that speaks what @huggingface/hub asks of it when
 * kfbench fetches a model: the revision's commit (`GET /api/models/ORG/REPO/revision/REV`), the
 * files' hashes (`POST /api/models/ORG/REPO/paths-info/REV`) and the files
 * (`GET /ORG/REPO/resolve/REV/PATH`, a `Range: bytes=0-0` probe answered 206 with Content-Range,
 * ETag / X-Linked-Etag and X-Repo-Commit). `.onnx` files are served as LFS files (hash: sha256),
 * the rest as git files (hash: the git blob sha1). Every request is recorded; `status` makes each
 * answer that HTTP error (401: a gated model), `truncate` sends half of every `.onnx` file.
 * Hostile modes (issue 55): `barrier` holds every `.onnx` download after its first half until that
 * many are in flight at once (two processes racing); `endlessFile` sends zeros after a file's
 * declared bytes for ever, `endlessApi` an API answer that never ends, `endlessError` an error
 * body that never ends, `hang` never answers; `oid` / `size` replace what paths-info says of a
 * path; `redirect` answers every file download with a 302 to that base URL (a second server).
 * `sent` counts the bytes of file bodies sent.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeHub {
  /** The endpoint to put into HF_ENDPOINT. */
  url: string;
  commit: string;
  requests: string[];
  /** The Authorization headers seen (HF_TOKEN as a bearer token). */
  auth: string[];
  mode: HubMode;
  /** Bytes of file bodies sent so far. */
  sent: number;
  close(): Promise<void>;
}

export interface HubMode {
  status?: number;
  truncate?: boolean;
  barrier?: number;
  endlessFile?: boolean;
  endlessApi?: boolean;
  endlessError?: boolean;
  hang?: boolean;
  oid?: Record<string, string>;
  lfsOid?: Record<string, string>;
  size?: Record<string, unknown>;
  redirect?: string;
}

/** Write zeros (or `chunk`) to `res` until the client goes away. */
export function endless(
  res: ServerResponse,
  chunk: Buffer = Buffer.alloc(64 * 1024),
  count?: (n: number) => void,
) {
  const more = () => {
    while (!res.destroyed && res.write(chunk)) count?.(chunk.length);
    if (!res.destroyed) res.once('drain', more);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  more();
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const gitSha1 = (b: Buffer) => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

export async function startFakeHub(repo: string, files: Record<string, Buffer>): Promise<FakeHub> {
  const commit = createHash('sha1')
    .update(`${repo}\n${Object.keys(files).join('\n')}`)
    .digest('hex');
  const lfs = (p: string) => p.endsWith('.onnx');
  const etag = (p: string) => (lfs(p) ? sha256(files[p]!) : gitSha1(files[p]!));
  const hub: FakeHub = {
    url: '',
    commit,
    requests: [],
    auth: [],
    mode: {},
    sent: 0,
    close: async () => undefined,
  };
  const waiting: (() => void)[] = [];
  const atBarrier = (go: () => void) => {
    waiting.push(go);
    if (waiting.length >= (hub.mode.barrier ?? 0)) for (const w of waiting.splice(0)) w();
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((r) => {
      let s = '';
      req.on('data', (c: Buffer) => {
        s += c.toString();
      });
      req.on('end', () => r(s));
    });

  /** A file's bytes, as the mode says (truncated, racing, endless). */
  const serveFile = (res: ServerResponse, f: string, data: Buffer, headers: Record<string, string>) => {
    const body = hub.mode.truncate && lfs(f) ? data.subarray(0, data.length >> 1) : data;
    if (hub.mode.endlessFile) {
      res.writeHead(200, headers);
      hub.sent += body.length;
      res.write(body);
      endless(res, undefined, (n) => {
        hub.sent += n;
      });
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    if (hub.mode.barrier && lfs(f)) {
      const half = body.length >> 1;
      res.write(body.subarray(0, half));
      atBarrier(() => {
        hub.sent += body.length;
        res.end(body.subarray(half));
      });
      return;
    }
    hub.sent += body.length;
    res.end(body);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hub.requests.push(`${req.method} ${url.pathname}`);
    if (req.headers.authorization) hub.auth.push(req.headers.authorization);
    if (hub.mode.hang) return;
    if (hub.mode.endlessError) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      endless(res, Buffer.from('{"error":"x"}'.padEnd(4096)));
      return;
    }
    if (hub.mode.status) {
      json(res, hub.mode.status, { error: 'Access to model is restricted. You must be authenticated.' });
      return;
    }
    const revisionApi = `/api/models/${repo}/revision/`;
    const pathsApi = `/api/models/${repo}/paths-info/`;
    const resolve = `/${repo}/resolve/`;
    const p = decodeURIComponent(url.pathname);
    const knownRev = (r: string) => r === 'main' || r === commit;
    if (req.method === 'GET' && p.startsWith(revisionApi) && knownRev(p.slice(revisionApi.length))) {
      json(res, 200, {
        _id: 'x',
        id: repo,
        sha: commit,
        private: false,
        gated: 'manual',
        downloads: 0,
        likes: 0,
        lastModified: '2025-08-14T00:00:00.000Z',
      });
      return;
    }
    if (req.method === 'POST' && p.startsWith(pathsApi) && knownRev(p.slice(pathsApi.length))) {
      if (hub.mode.endlessApi) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('[');
        endless(
          res,
          Buffer.from(`${JSON.stringify({ type: 'file', path: 'x', oid: 'y', size: 1 })},`.repeat(64)),
        );
        return;
      }
      void readBody(req).then((body) => {
        const { paths } = JSON.parse(body) as { paths: string[] };
        json(
          res,
          200,
          paths
            .filter((f) => files[f])
            .map((f) => ({
              type: 'file',
              path: f,
              oid: hub.mode.oid?.[f] ?? gitSha1(files[f]!),
              size: hub.mode.size && f in hub.mode.size ? hub.mode.size[f] : files[f]!.length,
              ...(lfs(f)
                ? {
                    lfs: {
                      oid: hub.mode.lfsOid?.[f] ?? sha256(files[f]!),
                      size: hub.mode.size && f in hub.mode.size ? hub.mode.size[f] : files[f]!.length,
                      pointerSize: 134,
                    },
                  }
                : {}),
            })),
        );
      });
      return;
    }
    if (req.method === 'GET' && p.startsWith(resolve)) {
      const rest = p.slice(resolve.length);
      const slash = rest.indexOf('/');
      const rev = rest.slice(0, slash);
      const f = rest.slice(slash + 1);
      const data = files[f];
      if (!knownRev(rev) || !data) {
        res.writeHead(404, { 'X-Error-Code': 'EntryNotFound' });
        res.end();
        return;
      }
      const headers = {
        ETag: `"${etag(f)}"`,
        'X-Repo-Commit': commit,
        ...(lfs(f) ? { 'X-Linked-Etag': `"${etag(f)}"`, 'X-Linked-Size': String(data.length) } : {}),
      };
      if (hub.mode.redirect) {
        res.writeHead(302, { ...headers, Location: `${hub.mode.redirect}/${rev}/${f}` });
        res.end();
        return;
      }
      if (req.headers.range === 'bytes=0-0') {
        res.writeHead(206, {
          ...headers,
          'Content-Range': `bytes 0-0/${data.length}`,
          'Content-Length': '1',
        });
        res.end(data.subarray(0, 1));
        return;
      }
      serveFile(res, f, data, headers);
      return;
    }
    json(res, 404, { error: `fake hub: no route for ${req.method} ${p}` });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hub.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return hub;
}

export interface FileServer {
  url: string;
  /** The Authorization headers seen (none should be: HF_TOKEN is the hub's alone). */
  auth: string[];
  requests: string[];
  close(): Promise<void>;
}

/**
 * A second server on 127.0.0.1 (a CDN a hub redirects to): `GET /REV/PATH` answers the file, with
 * the `X-Cache: … cloudfront` header that makes the hub client fetch from it directly.
 */
export async function startFileServer(files: Record<string, Buffer>): Promise<FileServer> {
  const fs: FileServer = { url: '', auth: [], requests: [], close: async () => undefined };
  const server = createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    fs.requests.push(`${req.method} ${p}`);
    if (req.headers.authorization) fs.auth.push(req.headers.authorization);
    const f = p.split('/').slice(2).join('/');
    const data = files[f];
    if (!data) {
      res.writeHead(404);
      res.end();
      return;
    }
    const lfs = f.endsWith('.onnx');
    const tag = lfs ? sha256(data) : gitSha1(data);
    const headers = { ETag: `"${tag}"`, 'X-Cache': 'Hit from cloudfront' };
    if (req.headers.range === 'bytes=0-0') {
      res.writeHead(206, { ...headers, 'Content-Range': `bytes 0-0/${data.length}`, 'Content-Length': '1' });
      res.end(data.subarray(0, 1));
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(data.length) });
    res.end(data);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fs.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fs.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return fs;
}
