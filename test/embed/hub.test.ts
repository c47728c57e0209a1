/**
 * `--embedder hf:ORG/REPO`: a tiny ONNX model (test/fixtures/embed/tiny-vit.onnx) laid out as a hub
 * repository and served by a real HTTP server on 127.0.0.1 (test/support/fake-hub.ts) as
 * HF_ENDPOINT, with HF_HOME in a temporary folder. No test reaches the internet.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine } from '../../src/embed/embedder.js';
import { preprocessFromHubConfig } from '../../src/embed/hub-preprocess.js';
import { loadOnnxEmbedder } from '../../src/embed/onnx.js';
import { createEmbedder } from '../../src/embed/registry.js';
import type { RawImage } from '../../src/media/raw.js';
import { runCli } from '../support/cli.js';
import { type FakeHub, startFakeHub } from '../support/fake-hub.js';
import { ROOT, tempDir } from '../support/paths.js';

const FIX = join(ROOT, 'test', 'fixtures', 'embed');
const MODEL = readFileSync(join(FIX, 'tiny-vit.onnx'));
const REPO = 'test-org/tiny-vit';
const CONFIG = Buffer.from(JSON.stringify({ model_type: 'tiny-vit', hidden_size: 8 }));
/** A DINOv3-like image processor: a square resize, no crop. */
const SQUASH = {
  image_processor_type: 'DINOv3ViTImageProcessorFast',
  do_resize: true,
  size: { height: 32, width: 32 },
  do_center_crop: null,
  crop_size: null,
  do_rescale: true,
  rescale_factor: 0.00392156862745098,
  do_normalize: true,
  image_mean: [0.485, 0.456, 0.406],
  image_std: [0.229, 0.224, 0.225],
  resample: 2,
};
/** A DINOv2-like one: the shorter side to 40, then the centre 32×32. */
const CROP = {
  ...SQUASH,
  size: { shortest_edge: 40 },
  do_center_crop: true,
  crop_size: { height: 32, width: 32 },
};

const repoFiles = (pre: object) => ({
  'config.json': CONFIG,
  'preprocessor_config.json': Buffer.from(JSON.stringify(pre)),
  'onnx/model.onnx': MODEL,
});

function gradient(width: number, height: number, seed: number): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++)
    for (let c = 0; c < 3; c++)
      data[i * 3 + c] = ((i % width) * (3 + c) + Math.floor(i / width) * (5 + seed) + seed * 41) % 256;
  return { width, height, channels: 3, data };
}

const IMG0 = join(FIX, 'img0.png');
const IMG1 = join(FIX, 'img1.png');
const similarity = (env: NodeJS.ProcessEnv, ...extra: string[]) =>
  runCli(['embed', 'similarity', IMG0, IMG1, '--embedder', `hf:${REPO}`, '--json', ...extra], { env });

describe('hf: embedder from a hub on 127.0.0.1', () => {
  let hub: FakeHub;
  const env = (home: string, more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    HF_ENDPOINT: hub.url,
    HF_HOME: home,
    HF_HUB_CACHE: undefined,
    HUGGINGFACE_HUB_CACHE: undefined,
    HF_HUB_OFFLINE: '0',
    HF_TOKEN: undefined,
    KFBENCH_PROGRESS_EVERY_S: '0',
    ...more,
  });
  beforeAll(async () => {
    // the fp16 file is the same tiny model: what counts here is which file a variant names
    hub = await startFakeHub(REPO, { ...repoFiles(SQUASH), 'onnx/model_fp16.onnx': MODEL });
  });
  afterAll(() => hub.close());

  it('downloads once with progress and a checked hash into the hub cache layout; later runs and HF_HUB_OFFLINE=1 make no request', async () => {
    const home = tempDir();
    hub.requests.length = 0;
    const first = await similarity(env(home));
    expect(first.stderr).toMatch(/download onnx\/model\.onnx/);
    expect(first.code).toBe(0);
    expect(hub.requests).toContain(`GET /${REPO}/resolve/${hub.commit}/onnx/model.onnx`);
    const storage = join(home, 'hub', 'models--test-org--tiny-vit');
    expect(readFileSync(join(storage, 'refs', 'main'), 'utf8')).toBe(hub.commit);
    const pointer = join(storage, 'snapshots', hub.commit, 'onnx', 'model.onnx');
    expect(readlinkSync(pointer)).toMatch(/^\.\.\/\.\.\/\.\.\/blobs\/[0-9a-f]{64}$/);
    expect(readFileSync(pointer)).toEqual(MODEL);
    const cos = (JSON.parse(first.stdout) as { cosine: number }).cosine;

    const before = hub.requests.length;
    const second = await similarity(env(home));
    expect(second.code).toBe(0);
    expect(hub.requests.length).toBe(before);
    expect((JSON.parse(second.stdout) as { cosine: number }).cosine).toBe(cos);

    hub.mode.status = 500; // a request now would fail
    try {
      const offline = await similarity(env(home, { HF_HUB_OFFLINE: '1' }));
      expect(offline.stderr).toBe('');
      expect(offline.code).toBe(0);
      expect((JSON.parse(offline.stdout) as { cosine: number }).cosine).toBe(cos);
      expect(hub.requests.length).toBe(before);
    } finally {
      hub.mode = {};
    }
  });

  it('offline without the model in the cache: one line saying how to fetch it or to choose builtin (exit 4), no request', async () => {
    hub.requests.length = 0;
    const r = await runCli(['embed', 'similarity', IMG0, IMG1, '--embedder', 'dinov3-small'], {
      env: env(tempDir(), { HF_HUB_OFFLINE: '1' }),
    });
    expect(r.code).toBe(4);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('onnx-community/dinov3-vits16-pretrain-lvd1689m-ONNX');
    expect(lines[0]).toContain('HF_HUB_OFFLINE');
    expect(lines[0]).toContain('--embedder builtin knowingly');
    expect(hub.requests).toEqual([]);
  });

  it('a 401 (a gated model) is one line naming the model page and HF_TOKEN (exit 4)', async () => {
    hub.mode.status = 401;
    try {
      const r = await similarity(env(tempDir()));
      expect(r.code).toBe(4);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('gated');
      expect(lines[0]).toContain(`${hub.url}/${REPO}`);
      expect(lines[0]).toContain('HF_TOKEN');
      hub.mode.status = 403; // a token without access
      const denied = await similarity(env(tempDir(), { HF_TOKEN: 'hf_kfbenchtest' }));
      expect(denied.code).toBe(4);
      expect(denied.stderr.trim().split('\n')).toHaveLength(1);
      expect(denied.stderr).toMatch(/HTTP 403, the model is gated or private: .*HF_TOKEN/);
      expect(hub.auth).toContain('Bearer hf_kfbenchtest');
    } finally {
      hub.mode = {};
    }
  });

  it('a truncated download is detected, deleted and never used; the next run fetches it whole', async () => {
    const home = tempDir();
    const storage = join(home, 'hub', 'models--test-org--tiny-vit');
    hub.mode.truncate = true;
    try {
      const r = await similarity(env(home));
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/onnx\/model\.onnx came incomplete or altered .* deleted, not used/);
      expect(existsSync(join(storage, 'snapshots', hub.commit, 'onnx', 'model.onnx'))).toBe(false);
      expect(readdirSync(join(storage, 'blobs')).filter((b) => b.endsWith('.incomplete'))).toEqual([]);
      // a second try with HF_HUB_OFFLINE=1 does not take the broken file for a cached model
      const offline = await similarity(env(home, { HF_HUB_OFFLINE: '1' }));
      expect(offline.code).toBe(4);
    } finally {
      hub.mode = {};
    }
    const again = await similarity(env(home));
    expect(again.code).toBe(0);
    expect(readFileSync(join(storage, 'snapshots', hub.commit, 'onnx', 'model.onnx'))).toEqual(MODEL);
  });

  it('--variant names another ONNX file, in the embedder id; one the repository lacks is a one-line error (exit 4)', async () => {
    const home = tempDir();
    const fp16 = await runCli(
      ['embed', 'similarity', IMG0, IMG1, '--embedder', `hf:${REPO}`, '--variant', 'fp16'],
      { env: env(home) },
    );
    expect(fp16.code).toBe(0);
    expect(fp16.stdout).toContain(`(hf:${REPO}#fp16;`);
    expect(hub.requests).toContain(`GET /${REPO}/resolve/${hub.commit}/onnx/model_fp16.onnx`);
    const snapshot = join(home, 'hub', 'models--test-org--tiny-vit', 'snapshots', hub.commit, 'onnx');
    expect(readdirSync(snapshot)).toEqual(['model_fp16.onnx']);
    const r = await similarity(env(tempDir()), '--variant', 'q8');
    expect(r.code).toBe(4);
    expect(r.stderr.trim()).toMatch(/has no onnx\/model_quantized\.onnx \(variant q8/);
    const bad = await similarity(env(tempDir()), '--variant', 'int3');
    expect(bad.code).toBe(2);
    const onnx = await runCli(
      [
        'embed',
        'similarity',
        IMG0,
        IMG1,
        '--embedder',
        `onnx:${join(FIX, 'tiny-vit.onnx')}`,
        '--variant',
        'fp16',
      ],
      { env: env(tempDir()) },
    );
    expect(onnx.code).toBe(2);
  });
});

describe('hf: features equal onnx:PATH with the equivalent JSON', () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  it.each([
    ['a square resize (DINOv3-like)', SQUASH, { input_size: 32, resize: 'squash' }],
    [
      'shorter side then a centre crop (DINOv2-like)',
      CROP,
      { input_size: 32, resize: 'shorter_side_center_crop', crop_from: 40 },
    ],
  ])('%s', async (_name, pre, json) => {
    const hub = await startFakeHub(REPO, repoFiles(pre));
    try {
      process.env.HF_ENDPOINT = hub.url;
      process.env.HF_HOME = tempDir();
      process.env.HF_HUB_OFFLINE = '0';
      delete process.env.HF_HUB_CACHE;
      delete process.env.HUGGINGFACE_HUB_CACHE;
      delete process.env.HF_TOKEN;
      const events: string[] = [];
      const hf = await createEmbedder(
        `hf:${REPO}`,
        {},
        { onProgress: (e) => events.push(`${e.type} ${e.phase}`) },
      );
      expect(events).toContain('phase-started download onnx/model.onnx');
      expect(events).toContain('item-done download onnx/model.onnx');
      const dir = tempDir();
      writeFileSync(join(dir, 'tiny.onnx'), MODEL);
      writeFileSync(
        join(dir, 'tiny.json'),
        JSON.stringify({ ...json, mean: SQUASH.image_mean, std: SQUASH.image_std, output: 'pooler_output' }),
      );
      const local = await loadOnnxEmbedder(join(dir, 'tiny.onnx'));
      try {
        expect(hf.id).toBe(`hf:${REPO}#fp32`);
        expect(hf.config.hub).toEqual({ repo: REPO, commit: hub.commit, variant: 'fp32' });
        expect(hf.config.output).toBe('pooler_output');
        const images = [gradient(48, 40, 1), gradient(37, 53, 2), gradient(32, 32, 3)];
        const a = await hf.embed(images);
        const b = await local.embed(images);
        expect(a.map((v) => [...v])).toEqual(b.map((v) => [...v]));
        expect(cosine(a[0]!, a[1]!)).toBeLessThan(0.99999);
      } finally {
        await hf.close();
        await local.close();
      }
    } finally {
      await hub.close();
    }
  });
});

describe('preprocessor_config.json → preprocessing', () => {
  const file = (o: object) => {
    const f = join(tempDir(), 'preprocessor_config.json');
    writeFileSync(f, JSON.stringify(o));
    return f;
  };
  it('maps resize, crop, rescale and normalisation', () => {
    expect(preprocessFromHubConfig(file({ ...SQUASH, size: { height: 224, width: 224 } }))).toEqual({
      input_size: [224, 224],
      resize: 'squash',
      rescale: 0.00392156862745098,
      mean: SQUASH.image_mean,
      std: SQUASH.image_std,
      layout: 'NCHW',
    });
    expect(
      preprocessFromHubConfig(
        file({
          ...CROP,
          size: { shortest_edge: 256 },
          crop_size: { height: 224, width: 224 },
          do_normalize: false,
          do_rescale: false,
        }),
      ),
    ).toEqual({
      input_size: [224, 224],
      resize: 'shorter_side_center_crop',
      crop_from: 256,
      rescale: 1,
      mean: [0, 0, 0],
      std: [1, 1, 1],
      layout: 'NCHW',
    });
  });
  it('refuses an input size that would depend on the image, naming the file', () => {
    const f = file({ ...SQUASH, size: { shortest_edge: 224 } });
    expect(() => preprocessFromHubConfig(f)).toThrow(/no fixed input size/);
  });
});
