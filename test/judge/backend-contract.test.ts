/**
 * The contract every judge backend of the registry keeps (issue 58 item 4), run over the list
 * itself: a backend added to `JUDGE_BACKENDS` is checked here without a test of its own — and
 * fails until it has a fixture below. Real parts only: the `openai` backend talks to the VLM
 * emulator's HTTP server on 127.0.0.1, the `local` backend reads a reader fitted here.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinEmbedder } from '../../src/embed/builtin.js';
import { UsageError } from '../../src/errors.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { Judge } from '../../src/judge/judge.js';
import { fitLocalReader, writeReaderFile } from '../../src/judge/local.js';
import { comparePair } from '../../src/judge/pairwise.js';
import { resolveJudgeSettings } from '../../src/judge/precedence.js';
import { JUDGE_BACKENDS, JUDGE_FORMS, judgeBackendFor, parseJudgeSpec } from '../../src/judge/registry.js';
import { loadImage } from '../../src/media/image.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { media, tempDir } from '../support/paths.js';

let emu: Emulator;
let readerFile: string;

/** A spec each backend opens for real, by prefix. */
const FIXTURES: Record<string, () => string> = {
  openai: () => `openai:kfbench-emulator@${emu.url}`,
  local: () => `local:${readerFile}`,
};

beforeAll(async () => {
  emu = await startEmulator();
  const emb = createBuiltinEmbedder();
  const [a, b] = await emb.embed(await Promise.all(['base.png', 'blur.png'].map((n) => loadImage(media(n)))));
  readerFile = join(tempDir(), 'reader.json');
  const pairs = Array.from({ length: 4 }, () => ({ a: a!, b: b!, winner: 'a' as const }));
  await writeReaderFile(readerFile, fitLocalReader(pairs, emb, 1));
});
afterAll(() => emu.close());

const usageError = (f: () => unknown): UsageError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('no error thrown');
};

describe('the judge backend list', () => {
  it('has one entry per prefix, each with a fixture here, and the help names every form', () => {
    const prefixes = JUDGE_BACKENDS.map((b) => b.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(Object.keys(FIXTURES).sort()).toEqual([...prefixes].sort());
    for (const b of JUDGE_BACKENDS) expect(JUDGE_FORMS.split(' | ')).toContain(b.form);
  });

  it.each(['nosuch:model@http://127.0.0.1:1/v1', 'gpt4o', ''])(
    'refuses the unknown prefix of "%s" with a UsageError naming every known one',
    (spec) => {
      const e = usageError(() => parseJudgeSpec(spec));
      expect(e.message).toContain(`got "${spec}"`);
      expect(e.message).toContain(`the backends are ${JUDGE_BACKENDS.map((b) => b.prefix).join(', ')}`);
    },
  );
});

describe.each(JUDGE_BACKENDS.map((b) => [b.prefix, b] as const))('judge backend %s', (prefix, backend) => {
  it('parses its example and a real spec into settings of its kind; the registry routes them to it', () => {
    for (const spec of [backend.example, FIXTURES[prefix]!()]) {
      expect(spec.startsWith(`${prefix}:`)).toBe(true);
      expect(judgeBackendFor(spec)).toBe(backend);
      expect(backend.parse(spec).kind).toBe(prefix);
      expect(parseJudgeSpec(spec)).toEqual(backend.parse(spec));
    }
  });

  it('refuses a malformed spec with a UsageError naming the spec and its form', () => {
    for (const spec of [`${prefix}:`, prefix]) {
      const e = usageError(() => parseJudgeSpec(spec));
      expect(e.message).toContain(`got "${spec}"`);
      expect(e.message).toContain(backend.form);
    }
  });

  it('a misspelt prefix is refused with the one meant', () => {
    const spec = `${prefix}x:${FIXTURES[prefix]!().slice(prefix.length + 1)}`;
    expect(usageError(() => parseJudgeSpec(spec)).message).toContain(`did you mean "${prefix}"?`);
  });

  it('opens a backend of the JudgeBackend interface that answers a question; closing it twice is fine', async () => {
    const spec = FIXTURES[prefix]!();
    const settings = resolveJudgeSettings({ judge: spec }, {});
    const opened = await backend.open(backend.parse(spec), { settings, backoffBaseMs: 5 });
    try {
      expect(opened.name).toBe(prefix);
      expect(typeof opened.model).toBe('string');
      expect(opened.identity).toBeTypeOf('object');
      expect(opened.complete).toBeTypeOf('function');
      expect(opened.close).toBeTypeOf('function');
      const enc = new ImageEncoder();
      const [a, b] = await Promise.all(
        ['base.png', 'blur.png'].map(async (n) => enc.fromRaw(await loadImage(media(n)))),
      );
      const r = await comparePair(new Judge(opened), a!, b!, 'Which image is sharper?');
      expect(r.verdicts.map((v) => v.winner)).toEqual([
        expect.stringMatching(/^[AB]$/),
        expect.stringMatching(/^[AB]$/),
      ]);
    } finally {
      await opened.close();
    }
    await expect(opened.close()).resolves.toBeUndefined();
  });
});
