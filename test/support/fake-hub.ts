/**
 * A model hub on 127.0.0.1 (a real HTTP server) that speaks what @huggingface/hub asks of it when
 * kfbench fetches a model: the revision's commit (`GET /api/models/ORG/REPO/revision/REV`), the
 * files' hashes (`POST /api/models/ORG/REPO/paths-info/REV`) and the files
 * (`GET /ORG/REPO/resolve/REV/PATH`, a `Range: bytes=0-0` probe answered 206 with Content-Range,
 * ETag / X-Linked-Etag and X-Repo-Commit). `.onnx` files are served as LFS files (hash: sha256),
 * the rest as git files (hash: the git blob sha1). Every request is recorded; `status` makes each
 * answer that HTTP error (401: a gated model), `truncate` sends half of every `.onnx` file.
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
  mode: { status?: number; truncate?: boolean };
  close(): Promise<void>;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const gitSha1 = (b: Buffer) => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

export async function startFakeHub(repo: string, files: Record<string, Buffer>): Promise<FakeHub> {
  const commit = createHash('sha1')
    .update(`${repo}\n${Object.keys(files).join('\n')}`)
    .digest('hex');
  const lfs = (p: string) => p.endsWith('.onnx');
  const etag = (p: string) => (lfs(p) ? sha256(files[p]!) : gitSha1(files[p]!));
  const hub: FakeHub = { url: '', commit, requests: [], auth: [], mode: {}, close: async () => undefined };

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

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hub.requests.push(`${req.method} ${url.pathname}`);
    if (req.headers.authorization) hub.auth.push(req.headers.authorization);
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
              oid: gitSha1(files[f]!),
              size: files[f]!.length,
              ...(lfs(f)
                ? { lfs: { oid: sha256(files[f]!), size: files[f]!.length, pointerSize: 134 } }
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
      if (req.headers.range === 'bytes=0-0') {
        res.writeHead(206, {
          ...headers,
          'Content-Range': `bytes 0-0/${data.length}`,
          'Content-Length': '1',
        });
        res.end(data.subarray(0, 1));
        return;
      }
      const body = hub.mode.truncate && lfs(f) ? data.subarray(0, data.length >> 1) : data;
      res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
      res.end(body);
      return;
    }
    json(res, 404, { error: `fake hub: no route for ${req.method} ${p}` });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hub.close = () => new Promise<void>((r) => server.close(() => r()));
  return hub;
}
