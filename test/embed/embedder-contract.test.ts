/**
 * The contract every embedder of the registry keeps (issue 58 item 4), run over the list itself:
 * an embedder added to `EMBEDDERS` is checked here without a test of its own — and fails until it
 * has a fixture below. Real parts only: the tiny ONNX model of test/fixtures/embed run by
 * onnxruntime, served for `hf:` by a hub on 127.0.0.1 (test/support/fake-hub.ts) with HF_HOME in
 * a temporary folder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMBEDDER_ALIASES,
  EMBEDDER_FORMS,
  EMBEDDERS,
  embedderFor,
  embedderFromSpec,
  parseEmbedderSpec,
} from '../../src/embed/registry.js';
import { UsageError } from '../../src/errors.js';
import { loadImage } from '../../src/media/image.js';
import { type FakeHub, startFakeHub } from '../support/fake-hub.js';
import { ROOT, tempDir } from '../support/paths.js';

const FIX = join(ROOT, 'test', 'fixtures', 'embed');
const REPO = 'test-org/tiny-vit';
let hub: FakeHub;

/** A spec each embedder opens for real, by prefix. */
const FIXTURES: Record<string, string> = {
  builtin: 'builtin',
  onnx: `onnx:${join(FIX, 'tiny-vit.onnx')}`,
  hf: `hf:${REPO}`,
};

const saved = { ...process.env };
beforeAll(async () => {
  const model = readFileSync(join(FIX, 'tiny-vit.onnx'));
  const pre = {
    do_resize: true,
    size: { height: 32, width: 32 },
    do_rescale: true,
    rescale_factor: 1 / 255,
    do_normalize: true,
    image_mean: [0.485, 0.456, 0.406],
    image_std: [0.229, 0.224, 0.225],
  };
  hub = await startFakeHub(REPO, {
    'config.json': Buffer.from(JSON.stringify({ model_type: 'tiny-vit' })),
    'preprocessor_config.json': Buffer.from(JSON.stringify(pre)),
    'onnx/model.onnx': model,
  });
  process.env.HF_ENDPOINT = hub.url;
  process.env.HF_HOME = tempDir();
  process.env.HF_HUB_OFFLINE = '0';
  for (const k of ['HF_HUB_CACHE', 'HUGGINGFACE_HUB_CACHE', 'HF_TOKEN']) delete process.env[k];
});
afterAll(async () => {
  process.env = saved;
  await hub.close();
});

const usageError = (f: () => unknown): UsageError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('no error thrown');
};

describe('the embedder list', () => {
  it('has one entry per prefix, each with a fixture here, and the help names every form and alias', () => {
    const prefixes = EMBEDDERS.map((e) => e.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(Object.keys(FIXTURES).sort()).toEqual([...prefixes].sort());
    const forms = EMBEDDER_FORMS.split(' | ');
    for (const e of EMBEDDERS) expect(forms).toContain(e.form);
    for (const a of Object.keys(EMBEDDER_ALIASES)) expect(forms).toContain(a);
  });

  it.each(Object.entries(EMBEDDER_ALIASES))('the alias %s parses as the spec it names, %s', (alias, spec) => {
    expect(embedderFor(alias)).toBe(embedderFor(spec));
    expect(parseEmbedderSpec(alias)).toEqual(parseEmbedderSpec(spec));
  });

  it.each(['clip', 'nosuch:model.onnx', ''])(
    'refuses the unknown prefix of "%s" with a UsageError naming every known one',
    (spec) => {
      const e = usageError(() => parseEmbedderSpec(spec));
      expect(e.message).toContain(`got "${spec}"`);
      const known = [...EMBEDDERS.map((x) => x.prefix), ...Object.keys(EMBEDDER_ALIASES)];
      expect(e.message).toContain(`the embedders are ${known.join(', ')}`);
    },
  );
});

describe.each(EMBEDDERS.map((e) => [e.prefix, e] as const))('embedder %s', (prefix, factory) => {
  it('parses its example and a real spec into settings of its kind; the registry routes them to it', () => {
    for (const spec of [factory.example, FIXTURES[prefix]!]) {
      expect(embedderFor(spec)).toBe(factory);
      expect(factory.parse(spec, {}).kind).toBe(prefix);
      expect(parseEmbedderSpec(spec)).toEqual(factory.parse(spec, {}));
    }
  });

  it('refuses a malformed spec with a UsageError naming the spec and its form', () => {
    const e = usageError(() => parseEmbedderSpec(`${prefix}:`));
    expect(e.message).toContain(`got "${prefix}:"`);
    expect(e.message).toContain(factory.form);
  });

  it('a misspelt prefix is refused with the one meant', () => {
    const spec = `${prefix}x:model`;
    expect(usageError(() => parseEmbedderSpec(spec)).message).toContain(`did you mean "${prefix}"?`);
  });

  it('opens an Embedder that embeds, is made again from its spec, and closes twice', async () => {
    const images = await Promise.all([0, 1].map((i) => loadImage(join(FIX, `img${i}.png`))));
    const e = await factory.open(factory.parse(FIXTURES[prefix]!, {}), {});
    try {
      expect(e.id).toBeTypeOf('string');
      expect(e.version).toBeTypeOf('string');
      expect(e.config).toBeTypeOf('object');
      for (const m of ['inputSize', 'embed', 'close'] as const) expect(e[m]).toBeTypeOf('function');
      const vs = await e.embed(images);
      expect(vs).toHaveLength(2);
      for (const v of vs) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      const copy = await embedderFromSpec(structuredClone(e.spec!));
      try {
        expect([copy.id, copy.version]).toEqual([e.id, e.version]);
        expect(await copy.embed(images)).toEqual(vs);
      } finally {
        await copy.close();
        await copy.close();
      }
    } finally {
      await e.close();
    }
    await expect(e.close()).resolves.toBeUndefined();
  });
});
