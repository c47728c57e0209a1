/**
 * Issue 55, items 1–4, 12, 13: a hostile or broken model hub on 127.0.0.1 (test/support/fake-hub.ts)
 * against the real CLI in child processes — two processes racing for one blob, hashes that are
 * paths, lying sizes, endless bodies (memory bounded by the child's own heap limit), a hub that
 * never answers, an untrusted preprocessor_config.json, secrets in HF_ENDPOINT, and a redirect to
 * a second server that must never see HF_TOKEN.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { type FakeHub, startFakeHub, startFileServer } from '../support/fake-hub.js';
import { ROOT, tempDir } from '../support/paths.js';

const FIX = join(ROOT, 'test', 'fixtures', 'embed');
const MODEL = readFileSync(join(FIX, 'tiny-vit.onnx'));
const REPO = 'test-org/tiny-vit';
const PRE = {
  do_resize: true,
  size: { height: 32, width: 32 },
  do_rescale: true,
  rescale_factor: 1 / 255,
  do_normalize: true,
  image_mean: [0.485, 0.456, 0.406],
  image_std: [0.229, 0.224, 0.225],
};
const files = (pre: object = PRE) => ({
  'config.json': Buffer.from('{"model_type":"tiny-vit"}'),
  'preprocessor_config.json': Buffer.from(JSON.stringify(pre)),
  'onnx/model.onnx': MODEL,
});
const IMG0 = join(FIX, 'img0.png');
const IMG1 = join(FIX, 'img1.png');
const storageOf = (home: string) => join(home, 'hub', 'models--test-org--tiny-vit');

function envFor(hub: FakeHub, home: string, more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    HF_ENDPOINT: hub.url,
    HF_HOME: home,
    HF_HUB_CACHE: undefined,
    HUGGINGFACE_HUB_CACHE: undefined,
    HF_HUB_OFFLINE: '0',
    HF_TOKEN: undefined,
    KFBENCH_PROGRESS_EVERY_S: '0',
    // the child's heap is bounded: a reply read whole into memory aborts it (exit 134)
    NODE_OPTIONS: '--max-old-space-size=160',
    ...more,
  };
}
const similarity = (env: NodeJS.ProcessEnv) =>
  runCli(['embed', 'similarity', IMG0, IMG1, '--embedder', `hf:${REPO}`, '--json'], { env });
/** stderr without the download progress lines. */
const errorLines = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => l && !l.startsWith('download '));
const cosineOf = (stdout: string) => (JSON.parse(stdout) as { cosine: number }).cosine;

/** Every file under `dir` (relative paths), for "nothing written outside the cache". */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('hub downloads that trust nothing', () => {
  let hub: FakeHub;
  let truth: number;
  beforeAll(async () => {
    hub = await startFakeHub(REPO, files());
    const r = await similarity(envFor(hub, tempDir()));
    expect(r.code).toBe(0);
    truth = cosineOf(r.stdout);
  });
  afterAll(() => hub.close());

  it('1. two processes downloading the same blob at once both get the whole model; a blob that no longer matches its name is refused and fetched again', async () => {
    const home = tempDir();
    hub.mode = { barrier: 2 };
    const [a, b] = await Promise.all([similarity(envFor(hub, home)), similarity(envFor(hub, home))]);
    hub.mode = {};
    expect([a.code, b.code, ...errorLines(a.stderr), ...errorLines(b.stderr)]).toEqual([0, 0]);
    expect([cosineOf(a.stdout), cosineOf(b.stdout)]).toEqual([truth, truth]);
    const pointer = join(storageOf(home), 'snapshots', hub.commit, 'onnx', 'model.onnx');
    expect(readFileSync(pointer)).toEqual(MODEL);
    expect(readdirSync(join(storageOf(home), 'blobs')).filter((f) => f.includes('incomplete'))).toEqual([]);

    // the blob altered in place (a poisoned cache): refused offline, fetched again online
    const blob = resolve(join(storageOf(home), 'snapshots', hub.commit, 'onnx'), readlinkSync(pointer));
    writeFileSync(
      blob,
      Buffer.concat([MODEL.subarray(0, MODEL.length >> 1), Buffer.alloc(MODEL.length >> 1)]),
    );
    const offline = await similarity(envFor(hub, home, { HF_HUB_OFFLINE: '1' }));
    expect(offline.code).toBe(4);
    expect(offline.stderr).toMatch(/onnx\/model\.onnx did not match its hash: deleted/);
    const again = await similarity(envFor(hub, home));
    expect(again.code).toBe(0);
    expect(cosineOf(again.stdout)).toBe(truth);
    expect(readFileSync(pointer)).toEqual(MODEL);
  });

  it('2. a hash from the hub that is a path is refused: nothing deleted, created or linked outside the cache', async () => {
    const home = tempDir();
    mkdirSync(join(home, 'victim'));
    writeFileSync(join(home, 'victim', 'notes.incomplete'), 'my notes');
    writeFileSync(join(home, 'victim', 'notes'), 'keep');
    for (const mode of [
      { oid: { 'config.json': '../../../victim/notes' } },
      { lfsOid: { 'onnx/model.onnx': '../../../elsewhere/x' } },
    ]) {
      hub.mode = mode;
      const r = await similarity(envFor(hub, home));
      hub.mode = {};
      expect(r.code).toBe(4);
      expect(errorLines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(
        /hash "\.\.\/\.\.\/\.\.\/.*", which is not (40|64) lowercase hex digits: refused/,
      );
    }
    expect(readFileSync(join(home, 'victim', 'notes.incomplete'), 'utf8')).toBe('my notes');
    expect(readFileSync(join(home, 'victim', 'notes'), 'utf8')).toBe('keep');
    expect(tree(home).filter((f) => !f.startsWith('hub/'))).toEqual([
      'victim/notes',
      'victim/notes.incomplete',
    ]);
  });

  it('3. a file larger than declared, endless API and error bodies, a size that is no number and a silent hub: one line each (exit 4), the child within its heap', async () => {
    const cases: [Parameters<typeof Object.assign>[1], RegExp][] = [
      [{ endlessFile: true }, /\S+ is larger than the \d+ bytes the hub declared/],
      [{ endlessApi: true }, /the model hub 127\.0\.0\.1:\d+ sent more than 1048576 bytes in answer to POST/],
      [
        { endlessError: true },
        /the model hub 127\.0\.0\.1:\d+ sent more than 1048576 bytes in answer to GET/,
      ],
      [{ size: { 'config.json': 1e300 } }, /the hub gave config\.json the size 1e\+300: refused/],
      [
        { hang: true },
        /the model hub 127\.0\.0\.1:\d+ sent nothing for 1 s while kfbench waited for an answer to GET/,
      ],
    ];
    for (const [mode, message] of cases) {
      const home = tempDir();
      hub.mode = mode;
      hub.sent = 0;
      const r = await similarity(envFor(hub, home, { KFBENCH_HUB_TIMEOUT_S: '1' }));
      hub.mode = {};
      expect({ code: r.code, lines: errorLines(r.stderr).length }).toEqual({ code: 4, lines: 1 });
      expect(r.stderr).toMatch(message);
      const blobs = join(storageOf(home), 'blobs');
      if (existsSync(blobs)) expect(readdirSync(blobs).filter((f) => f.includes('incomplete'))).toEqual([]);
    }
  });

  it('12. secrets in HF_ENDPOINT (user:password@, ?token=) appear in no message', async () => {
    const port = new URL(hub.url).port;
    hub.mode = { status: 500 };
    for (const endpoint of [
      `http://user:hf_SECRETinURL@127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/?token=hf_SECRETinQUERY`,
    ]) {
      const r = await similarity(envFor(hub, tempDir(), { HF_ENDPOINT: endpoint }));
      expect(r.code).not.toBe(0);
      expect(r.stderr).not.toBe('');
      expect(r.stderr).not.toContain('SECRET');
    }
    hub.mode = {};
  });

  it('13. HF_TOKEN goes to the endpoint only, never to the server a download is redirected to', async () => {
    const cdn = await startFileServer(files());
    try {
      hub.mode = { redirect: cdn.url };
      hub.auth.length = 0;
      const r = await similarity(envFor(hub, tempDir(), { HF_TOKEN: 'hf_kfbenchsecret' }));
      hub.mode = {};
      expect(errorLines(r.stderr)).toEqual([]);
      expect(r.code).toBe(0);
      expect(cosineOf(r.stdout)).toBe(truth);
      expect(cdn.requests.length).toBeGreaterThan(0);
      expect(hub.auth).toContain('Bearer hf_kfbenchsecret');
      expect(cdn.auth).toEqual([]);
    } finally {
      await cdn.close();
    }
  });
});

describe('4. preprocessor_config.json values are checked before any work', () => {
  let hub: FakeHub | undefined;
  afterAll(() => hub?.close());
  it.each([
    ['size 30000', { size: { height: 30000, width: 30000 } }, /size\.height: .*2048/],
    ['size 1e15', { size: 1e15 }, /size: /],
    ['rescale_factor 1e308', { rescale_factor: 1e308 }, /rescale_factor: /],
    ['image_mean 1e308', { image_mean: [1e308, 0, 0] }, /image_mean(\.0)?: /],
    ['image_std of two channels', { image_std: [0.2, 0.2] }, /image_std: /],
    ['image_std 0', { image_std: 0 }, /image_std: /],
  ])('%s: exit 3 naming the field and the file', async (_name, bad, message) => {
    await hub?.close();
    hub = await startFakeHub(REPO, files({ ...PRE, ...bad }));
    const r = await similarity(envFor(hub, tempDir()));
    expect(r.code).toBe(3);
    expect(errorLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('preprocessor_config.json');
    expect(r.stderr).toMatch(message);
  });
});
