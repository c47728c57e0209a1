/**
 * bench/evaluate — `hero evaluate` against the ceiling the judge allows, in the same run.
 *   npm run build && npx tsx bench/evaluate.ts
 * The mini HeroFrame set (chains built by the emulator), one method (`uniform`, 5 frames per film).
 * The emulator runs in its own process at a fixed 100 ms per reply; the client at concurrency 16, so
 * the ideal is 160 calls/s. For each protocol: insertions/s as a ratio to the ideal
 * (160 / calls per insertion), calls per insertion, and the warm re-run time; then the projected
 * calls and judge GPU-hours for one method on the full published benchmark
 * (204 films × ~10 chains × 5 frames = 10,200 insertions) at the measured calls per insertion,
 * assuming 1 s of GPU per 7-image-or-fewer call (a stated assumption, not a measurement).
 */

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildChains } from '../src/hero/build/build.js';
import { evaluate } from '../src/hero/evaluate/evaluate.js';
import { methodByName } from '../src/hero/select/registry.js';
import { runSelection } from '../src/hero/select/run.js';
import { JudgeCache } from '../src/judge/cache.js';
import { ImageEncoder } from '../src/judge/images.js';
import { Judge } from '../src/judge/judge.js';
import { OpenAiBackend } from '../src/judge/openai.js';
import { buildMiniHero } from '../src/synthetic/mini-hero.js';
import { emulatorProcess } from './emulator-process.js';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'bench', 'out', 'evaluate');

const mini = await buildMiniHero(join(OUT, 'mini'));
const enc = new ImageEncoder();
if (!existsSync(join(mini.data, '.bench-chains'))) {
  const fast = await emulatorProcess(0, 18291);
  await buildChains({
    data: mini.data,
    lsmdc: mini.lsmdc,
    stills: mini.stills,
    judge: new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [fast.url] })),
    encoder: enc,
    chainsPerFilm: 4,
    seed: 0,
  });
  fast.stop();
  (await import('node:fs')).writeFileSync(join(mini.data, '.bench-chains'), '');
}
const sel = join(OUT, 'uniform.jsonl');
await runSelection({ method: methodByName('uniform'), data: mini.data, track: mini.track, out: sel, k: 5 });
const slow = await emulatorProcess(100, 18292);
console.log(
  '| protocol | insertions | calls / insertion | insertions/s | ideal/s | ratio | warm re-run (s) | projected calls, 10,200 insertions | projected GPU-hours |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const protocol of ['pairwise', 'listwise', 'binary'] as const) {
  const cache = new JudgeCache(join(mkdtempSync(join(tmpdir(), 'kfb-eval-')), 'c.sqlite'));
  const judge = new Judge(
    new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [slow.url], concurrency: 16 }),
    { cache },
  );
  const t0 = performance.now();
  const r = await evaluate({
    data: mini.data,
    track: mini.track,
    methods: [{ method: 'uniform', file: sel }],
    judge,
    encoder: enc,
    protocol,
    concurrency: protocol === 'pairwise' ? 4 : 32,
    bootstrapB: 200,
  });
  const s = (performance.now() - t0) / 1000;
  const n = r.insertions.length;
  const perIns = judge.stats.calls / n;
  const ideal = 160 / perIns;
  const t1 = performance.now();
  await evaluate({
    data: mini.data,
    track: mini.track,
    methods: [{ method: 'uniform', file: sel }],
    judge,
    encoder: enc,
    protocol,
    concurrency: 32,
    bootstrapB: 200,
  });
  const warm = (performance.now() - t1) / 1000;
  cache.close();
  const projected = perIns * 10_200;
  console.log(
    `| ${protocol} | ${n} | ${perIns.toFixed(2)} | ${(n / s).toFixed(2)} | ${ideal.toFixed(2)} | ${(n / s / ideal).toFixed(3)} | ${warm.toFixed(2)} | ${Math.round(projected).toLocaleString('en')} | ${(projected / 3600).toFixed(1)} |`,
  );
}
slow.stop();
console.log(`\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
