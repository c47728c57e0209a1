/**
 * test/fixtures/compass/eval/leaderboard.json: a small `compass evaluate` result for the README's
 * `compass report` examples — the mini set's ot-03 and ms-06, the faithful model and the five
 * quality faults, minimal prompts, judged by the VLM emulator.
 *   npx tsx scripts/make-compass-eval-fixture.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCases } from '../src/compass/cases/cases.js';
import { leaderboard } from '../src/compass/overall/leaderboard.js';
import { judgeSegmenter } from '../src/compass/quality/segment.js';
import { evaluateCompass } from '../src/compass/run/evaluate.js';
import { createBuiltinEmbedder } from '../src/embed/builtin.js';
import { ImageEncoder } from '../src/judge/images.js';
import { Judge } from '../src/judge/judge.js';
import { OpenAiBackend } from '../src/judge/openai.js';
import { probe } from '../src/media/probe.js';
import { startEmulator } from '../src/synthetic/emulator/server.js';
import { buildMiniCompass } from '../src/synthetic/mini-compass/build.js';

const ROOT = resolve(import.meta.dirname, '..');
const p = await buildMiniCompass(join(ROOT, 'bench', 'out', 'mini-compass'));
const cases = (await loadCases(p.cases)).filter((c) => ['ot-03', 'ms-06'].includes(c.case_id));
const emu = await startEmulator();
const judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url] }), {
  sampling: { max_tokens: 2048 },
});
const models = ['faithful', ...p.qualityModels];
const encoder = new ImageEncoder(384);
const r = await evaluateCompass({
  cases,
  videos: p.videos,
  models,
  modes: ['minimal'],
  embedder: createBuiltinEmbedder(),
  judge,
  encoder,
  // as `compass evaluate` does by default: shots from the judge (seed E.2)
  segment: judgeSegmenter(judge, encoder, probe),
});
await emu.close();
const out = join(ROOT, 'test', 'fixtures', 'compass', 'eval');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'leaderboard.json'),
  `${JSON.stringify(leaderboard(r.videos, models, { judge: judge.name, embedder: 'builtin', runs: 1, segmenter: 'judge' }), null, 2)}\n`,
);
console.log(`wrote ${join(out, 'leaderboard.json')}`);
