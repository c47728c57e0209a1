/**
 * The README's walkthroughs run as printed: every `npx kfbench …` line of its sh blocks, in order,
 * with the mini sets in place of the user's data (the dataset, the footage, the cases, the videos,
 * an ONNX model, labelled pairs, the selections and the human judgments a user would bring), the
 * VLM emulator in place of the reader and the hosted judge, and a hub on 127.0.0.1
 * (test/support/fake-hub.ts, as HF_ENDPOINT, HF_HOME in this run's folder) serving the tiny test
 * model under the name `dinov3-small` stands for. Every other path is moved into this
 * run's own folder. A `serve` line is started, its home page fetched, and stopped.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDER_ALIASES } from '../src/embed/registry.js';
import { type Emulator, startEmulator } from '../src/synthetic/emulator/server.js';
import { runCli } from './support/cli.js';
import { type FakeHub, startFakeHub } from './support/fake-hub.js';
import { sharedMiniCompass } from './support/mini-compass.js';
import { sharedMiniHero, TEST_FILMS } from './support/mini-hero.js';
import { ROOT, tempDir } from './support/paths.js';
import { servesHome } from './support/serve.js';

/** The README's `npx kfbench …` lines, in order, as argument lists. */
function readmeLines(): string[][] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.split('\n'))
    .map((l) => l.trim())
    .filter((l) => l.startsWith('npx kfbench '))
    .map((l) => l.split(/\s+/).slice(2));
}

/** What a line must print, by a word of it that picks the line out. */
const PRINTS: [RegExp, RegExp][] = [
  [/frames locate .*--time/, /^21\n30\n$/],
  [/frames locate .*--json/, /"frame_idx": 9,/], // clips 1 and 2 of the mini film last 4.375 + 4.208 s: 8.583 + 1.25 → frame 9
  [/hero evaluate .*--dry-run/, /questions/],
  [/hero evaluate .*--out/, /^my_method\s+openai:kfbench-emulator/m],
  [/compass check-pipeline/, /^\d+ identities hold$/m],
  [/compass score/, /^my-model\s+2\s/m],
  [/compass report --eval \S+$/, /^my-model\s+0\.\d{3}/m],
  [/export-scores/, /^\d+ scores \(1 cases × 2 models × \d+ dimensions/],
  [/compass align/, /^== overall: agreement /m],
];

const root = tempDir('kfbench-readme-run-');
let emu: Emulator;
let hub: FakeHub;
const savedEnv = { ...process.env };
let map: Record<string, string> = {};

beforeAll(async () => {
  const [hero, compass] = [await sharedMiniHero(), await sharedMiniCompass()];
  emu = await startEmulator();
  // `--embedder dinov3-small`: the tiny test model laid out as that hub repository, fetched once
  const fixtures = join(ROOT, 'test', 'fixtures', 'embed');
  hub = await startFakeHub(EMBEDDER_ALIASES['dinov3-small']!.slice('hf:'.length), {
    'config.json': Buffer.from('{"model_type": "dinov3_vit"}'),
    'preprocessor_config.json': Buffer.from(JSON.stringify({ size: { height: 32, width: 32 }, resample: 2 })),
    'onnx/model.onnx': readFileSync(join(fixtures, 'tiny-vit.onnx')),
  });
  Object.assign(process.env, { HF_ENDPOINT: hub.url, HF_HOME: join(root, 'hf-home'), HF_HUB_OFFLINE: '0' });
  for (const k of ['HF_HUB_CACHE', 'HUGGINGFACE_HUB_CACHE', 'HF_TOKEN']) delete process.env[k];
  const judge = `openai:kfbench-emulator@${emu.url}`;
  const [A, B] = TEST_FILMS.map((f) => f.movie_id) as [string, string];
  // the user's material: one Compass case with its keyframes, two models' videos, selections, human choices
  const bench = join(root, 'compass-bench');
  mkdirSync(join(bench, 'keyframes', 'ot-03'), { recursive: true });
  const line = readFileSync(compass.cases, 'utf8')
    .split('\n')
    .find((l) => l.includes('"case_id":"ot-03"'))!;
  writeFileSync(join(bench, 'cases.jsonl'), `${line}\n`);
  for (const k of JSON.parse(line).keyframes as { image: string }[])
    copyFileSync(join(compass.root, k.image), join(bench, k.image));
  for (const [model, from] of [
    ['my-model', 'faithful'],
    ['other-model', 'blurred'],
  ] as const) {
    mkdirSync(join(root, 'my-videos', model), { recursive: true });
    for (const mode of ['minimal', 'segment_specific'])
      copyFileSync(
        join(compass.videos, from, `ot-03__${mode}.mp4`),
        join(root, 'my-videos', model, `ot-03__${mode}.mp4`),
      );
  }
  writeFileSync(
    join(root, 'my_method.jsonl'),
    [A, B]
      .map((movie_id) =>
        JSON.stringify({
          movie_id,
          frames: [
            { rank: 1, frame_idx: 21 },
            { rank: 2, frame_idx: 30 },
          ],
        }),
      )
      .join('\n'),
  );
  writeFileSync(
    join(root, 'human-judgments.jsonl'),
    ['A', 'A', 'B', 'A', 'Tie', 'A']
      .map((choice, i) =>
        JSON.stringify({
          case_id: 'ot-03',
          model_a: 'my-model',
          model_b: 'other-model',
          dimension: i < 3 ? 'overall' : 'visual_quality',
          annotator: `h${i % 3}`,
          choice,
        }),
      )
      .join('\n'),
  );
  map = {
    'heroframe-bench': hero.data,
    lsmdc: hero.lsmdc,
    '0001_American_Beauty': A,
    // the third clip of film A, named the LSMDC way like the release's
    '0001_American_Beauty_00.02.13.410-00.02.17.720': (
      JSON.parse(
        readFileSync(join(hero.data, 'data', 'clips.jsonl'), 'utf8')
          .split('\n')
          .find((l) => l.includes(`"${A}"`))!,
      ) as { clips: { clip_id: string }[] }
    ).clips[2]!.clip_id,
    'openai:Qwen/Qwen3.6-27B@http://127.0.0.1:8000/v1': judge,
    'openai:gpt-4.1@https://api.your-provider.example/v1': judge,
    'onnx:models/dinov2-small.onnx': `onnx:${join(ROOT, 'test', 'fixtures', 'embed', 'tiny-vit.onnx')}`,
    'my-pairs.jsonl': join(ROOT, 'test', 'fixtures', 'embed', 'pairs.jsonl'),
    'compass-bench/pairs.jsonl': compass.pairs,
    'dinov3-small': 'dinov3-small',
  };
});
afterAll(async () => {
  process.env = savedEnv;
  await hub?.close();
  await emu?.close();
});

/** The user's names → the mini material; any other path or option value → this run's folder. */
function args(line: readonly string[]): string[] {
  return line.map((a, i) => {
    if (a in map) return map[a]!;
    if (a.startsWith('-') || a.includes(':') || /^\d/.test(a)) return a;
    const value =
      line[i - 1]?.startsWith('--') && !['--model', '--case-id', '--format'].includes(line[i - 1]!);
    return value || /[./]/.test(a) ? join(root, a) : a;
  });
}

/** Starts a `serve` line, fetches its home page, stops it. */
async function serves(a: string[]): Promise<string> {
  return (await servesHome(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.js'), ...a])).page;
}

describe('README walkthroughs', () => {
  const lines = readmeLines();
  it('both walkthroughs are there', () => {
    const text = lines.map((l) => l.join(' '));
    for (const c of [
      'hero frames locate',
      'hero evaluate',
      'compass evaluate',
      'compass export-scores',
      'compass align',
    ])
      expect(
        text.some((t) => t.startsWith(c)),
        c,
      ).toBe(true);
  });
  it.each(lines.map((l) => [l.join(' '), l] as const))('npx kfbench %s', async (text, line) => {
    const a = args(line);
    if (line[0] === 'serve') {
      const page = await serves(a);
      expect(page).toMatch(line.includes('--results') ? /my_method/ : /my-model/);
      return;
    }
    const r = await runCli(a);
    expect(r.code, r.stderr).toBe(0);
    for (const [which, re] of PRINTS) if (which.test(text)) expect(r.stdout).toMatch(re);
  });
});
