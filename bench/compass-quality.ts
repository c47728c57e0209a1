/**
 * bench/compass-quality — the judge traffic of `compass evaluate` per video, against the VLM
 * emulator at zero latency (so the time is kfbench's own: decoding, encoding frames, motion,
 * parsing), and the cost of a full run of the published size projected from it; then both
 * benchmarks at a hosted judge's pace: the emulator in its own process at 2 s per reply and the
 * client at --concurrency 16, so the ceiling is 8 calls/s; calls/s of `compass evaluate` (scan
 * cache warm, fresh judge cache) and of `hero evaluate` (listwise, one call per insertion) as a
 * ratio to it.
 *   npm run build && npx tsx bench/compass-quality.ts [--paced]   (--paced: only the 2 s part)
 * Mini Compass set (8 cases, 320×180), model `faithful`, both prompt modes, a fresh judge cache.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCases, type PromptMode } from '../src/compass/cases/cases.js';
import { evaluateCompass } from '../src/compass/run/evaluate.js';
import { ScanCache } from '../src/compass/scan/cache.js';
import { createBuiltinEmbedder } from '../src/embed/builtin.js';
import { buildChains } from '../src/hero/build/build.js';
import { evaluate } from '../src/hero/evaluate/evaluate.js';
import { methodByName } from '../src/hero/select/registry.js';
import { runSelection } from '../src/hero/select/run.js';
import { JudgeCache } from '../src/judge/cache.js';
import { ImageEncoder } from '../src/judge/images.js';
import { Judge } from '../src/judge/judge.js';
import { OpenAiBackend } from '../src/judge/openai.js';
import { startEmulator } from '../src/synthetic/emulator/server.js';
import { buildMiniCompass } from '../src/synthetic/mini-compass/build.js';
import { buildMiniHero } from '../src/synthetic/mini-hero.js';
import { emulatorProcess } from './emulator-process.js';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'bench', 'out');
const rss = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);

const p = await buildMiniCompass(join(OUT, 'mini-compass'));
const cases = await loadCases(p.cases);
const encoder = new ImageEncoder(384);
if (!process.argv.includes('--paced')) {
  const emu = await startEmulator({ latencyMs: 0 });
  const cacheFile = join(OUT, 'compass-quality-cache.sqlite');
  rmSync(cacheFile, { force: true });
  const cache = new JudgeCache(cacheFile);
  const judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url] }), {
    cache,
    sampling: { max_tokens: 2048 },
  });
  const evaluateAll = () =>
    evaluateCompass({
      cases,
      videos: p.videos,
      models: ['faithful'],
      modes: ['minimal', 'segment_specific'],
      embedder: createBuiltinEmbedder(),
      judge,
      encoder,
    });
  const t0 = performance.now();
  const r = await evaluateAll();
  const wall = (performance.now() - t0) / 1000;
  const s = { ...judge.stats };
  const videos = r.videos.length;
  const checklistCalls = r.checklists.length;
  const groupedCalls = s.calls - checklistCalls;
  const frames = r.videos.reduce((n, v) => n + v.quality.frames.count, 0);
  const kfs = r.videos.reduce((n, v) => n + v.n_keyframes, 0);
  const groupsPerVideo = groupedCalls / videos;
  const imagesPerVideo = ((frames + kfs) / videos) * groupsPerVideo;
  // warm: everything from the cache
  const t1 = performance.now();
  await evaluateAll();
  const warm = (performance.now() - t1) / 1000;
  cache.close();
  await emu.close();

  console.log(`| figure | value |\n|---|---|`);
  console.log(`| videos (8 cases × 2 prompt modes) | ${videos} |`);
  console.log(
    `| checklist calls (once per case, mode and metric, shared by every model) | ${checklistCalls} (${(checklistCalls / cases.length / 2).toFixed(1)} per case and mode) |`,
  );
  console.log(`| grouped-judge calls per video | ${groupsPerVideo.toFixed(2)} |`);
  console.log(`| frames per video (8 fps, budget 48) | ${(frames / videos).toFixed(1)} |`);
  console.log(`| images per video (frames + keyframes, per call × calls) | ${imagesPerVideo.toFixed(1)} |`);
  console.log(
    `| prompt tokens per video (emulator's count: 258 per image + text/4) | ${(s.prompt_tokens / videos).toFixed(0)} |`,
  );
  console.log(`| completion tokens per video | ${(s.completion_tokens / videos).toFixed(0)} |`);
  console.log(`| wall time per video, cold (zero-latency judge) | ${(wall / videos).toFixed(2)} s |`);
  console.log(`| wall time per video, warm (all from the cache) | ${(warm / videos).toFixed(2)} s |`);
  console.log(`| peak RSS | ${rss()} MB |`);
  const full = 386 * 2;
  const fullCalls = 386 * 2 * (checklistCalls / (cases.length * 2)) + full * groupsPerVideo;
  console.log(
    `\nprojected, published size (386 cases × 2 prompt modes = ${full} videos per model): ${Math.round(fullCalls)} calls for the first model (checklists included), ${Math.round(full * groupsPerVideo)} for each further model; ${Math.round((full * s.prompt_tokens) / videos / 1e6)} M prompt tokens per model at mini-set frame counts`,
  );
}

// ---- at a hosted judge's pace: 2 s per reply, 16 in flight → ceiling 8 calls/s ----
const LATENCY_MS = 2000;
const CONCURRENCY = 16;
const IDEAL = (CONCURRENCY * 1000) / LATENCY_MS;
const pacedJudge = (url: string, file: string) => {
  rmSync(file, { force: true });
  const c = new JudgeCache(file);
  return {
    cache: c,
    judge: new Judge(
      new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [url], concurrency: CONCURRENCY }),
      { cache: c, sampling: { max_tokens: 2048 } },
    ),
  };
};
console.log(
  `\n| at 2 s per reply, --concurrency ${CONCURRENCY} | calls | wall (s) | calls/s | ideal/s | ratio |\n|---|---|---|---|---|---|`,
);
{
  // compass evaluate: warm the scan cache first so the timed run is the judging
  const scans = new ScanCache(join(OUT, 'compass-quality-scans.sqlite'));
  const fast = await startEmulator({ latencyMs: 0 });
  const warmUp = pacedJudge(fast.url, join(OUT, 'compass-quality-warm.sqlite'));
  const args = {
    cases,
    videos: p.videos,
    models: ['faithful'],
    modes: ['minimal', 'segment_specific'] as PromptMode[],
    embedder: createBuiltinEmbedder(),
    encoder,
    cache: scans,
  };
  await evaluateCompass({ ...args, judge: warmUp.judge });
  warmUp.cache.close();
  await fast.close();
  const slow = await emulatorProcess(LATENCY_MS, 18391);
  const j = pacedJudge(slow.url, join(OUT, 'compass-quality-paced.sqlite'));
  const t = performance.now();
  await evaluateCompass({ ...args, judge: j.judge, concurrency: CONCURRENCY });
  const w = (performance.now() - t) / 1000;
  const calls = j.judge.stats.calls;
  console.log(
    `| compass evaluate (16 videos, checklists included) | ${calls} | ${w.toFixed(1)} | ${(calls / w).toFixed(2)} | ${IDEAL} | **${(calls / w / IDEAL).toFixed(3)}** |`,
  );
  j.cache.close();
  scans.close();
  slow.stop();
}
{
  // hero evaluate: the mini HeroFrame set, chains built once, `uniform` 5 frames per film, listwise
  const heroOut = join(OUT, 'evaluate');
  const mini = await buildMiniHero(join(heroOut, 'mini'));
  const enc = new ImageEncoder();
  if (!existsSync(join(mini.data, '.bench-chains'))) {
    const fast = await startEmulator({ latencyMs: 0 });
    await buildChains({
      data: mini.data,
      lsmdc: mini.lsmdc,
      stills: mini.stills,
      judge: new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [fast.url] })),
      encoder: enc,
      chainsPerFilm: 4,
      seed: 0,
    });
    await fast.close();
    writeFileSync(join(mini.data, '.bench-chains'), '');
  }
  const sel = join(heroOut, 'uniform.jsonl');
  await runSelection({ method: methodByName('uniform'), data: mini.data, track: mini.track, out: sel, k: 5 });
  const slow = await emulatorProcess(LATENCY_MS, 18392);
  const j = pacedJudge(slow.url, join(OUT, 'hero-paced.sqlite'));
  const t = performance.now();
  await evaluate({
    data: mini.data,
    track: mini.track,
    methods: [{ method: 'uniform', file: sel }],
    judge: j.judge,
    encoder: enc,
    protocol: 'listwise',
    concurrency: CONCURRENCY,
    bootstrapB: 200,
  });
  const w = (performance.now() - t) / 1000;
  const calls = j.judge.stats.calls;
  console.log(
    `| hero evaluate (listwise, 120 insertions) | ${calls} | ${w.toFixed(1)} | ${(calls / w).toFixed(2)} | ${IDEAL} | **${(calls / w / IDEAL).toFixed(3)}** |`,
  );
  j.cache.close();
  slow.stop();
}
console.log(`\npeak RSS ${rss()} MB`);
