/**
 * bench/judge — the judge client against the ceiling the emulator allows, in the same run.
 *   npm run build && npx tsx bench/judge.ts
 * The emulator runs in its own process (`kfbench dev vlm-emulator`), so this process's CPU time is
 * the client's alone. Requests carry 7 images (a chain of six and a candidate, 448 px JPEGs;
 * `--side 96` for the synthetic sets' size).
 * (a) emulator at a fixed 100 ms, concurrency 16: calls/s as a ratio to the ideal 160/s
 * (b) emulator at 0 ms: client CPU ms per call with images already encoded (and the emulator's per
 *     request, from /proc); encoding cost per new image
 * (c) warm cache: lookups/s
 */

import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { JudgeCache } from '../src/judge/cache.js';
import { ImageEncoder } from '../src/judge/images.js';
import { Judge } from '../src/judge/judge.js';
import { OpenAiBackend } from '../src/judge/openai.js';
import { loadTemplate, render } from '../src/judge/prompts.js';
import { loadImage, resizeImage } from '../src/media/image.js';
import { emulatorProcess } from './emulator-process.js';

const ROOT = resolve(import.meta.dirname, '..');

const at = process.argv.indexOf('--side');
const SIDE = at > 0 ? Number(process.argv[at + 1]) : 448;
const enc = new ImageEncoder(SIDE);
const photos = ['astronaut.png', 'chelsea.png', 'coffee.png', 'rocket.jpg'];
const base = await Promise.all(photos.map((p) => loadImage(join(ROOT, 'assets', 'photos', p))));
const images = await Promise.all(
  Array.from({ length: 7 }, async (_, i) =>
    enc.fromRaw(
      await resizeImage(base[i % 4]!, SIDE - i * Math.ceil(SIDE / 56), Math.round((SIDE * 9) / 16)),
    ),
  ),
);
const t = loadTemplate('listwise');
const schema = z.object({ position: z.number().int().min(0).max(6) });
const q = (i: number) => ({
  prompt: render(t, { instructions: `Request ${i}: which is the best cover?`, n: 6, total: 7 }),
  images,
  labels: ['1', '2', '3', '4', '5', '6', '7'],
  protocol: { name: 'listwise', version: t.version },
  schema,
});
const rss = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

async function run(judge: Judge, n: number, offset: number): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < n) await judge.ask(q(offset + next++));
    }),
  );
  return (performance.now() - t0) / 1000;
}

const requestBytes = images.reduce((a, i) => a + Math.ceil((i.bytes.length * 4) / 3), 0);
console.log(`request: 7 images, ${(requestBytes / 1e6).toFixed(2)} MB of base64 image data`);

// (a)
const slow = await emulatorProcess(100, 18181);
const ja = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [slow.url], concurrency: 16 }));
await run(ja, 32, -1000); // warm (emulator decodes the images once)
const Na = 640;
const ea0 = slow.cpuSeconds();
const ca0 = process.cpuUsage();
const sa = await run(ja, Na, 0);
const ca = process.cpuUsage(ca0);
const ea = slow.cpuSeconds() - ea0;
slow.stop();
const rate = Na / sa;
console.log(
  `(a) 100 ms emulator, concurrency 16: ${rate.toFixed(1)} calls/s = ${(rate / 160).toFixed(3)} of the ideal 160/s; CPU per call: client ${((ca.user + ca.system) / 1000 / Na).toFixed(2)} ms, emulator ${((1000 * ea) / Na).toFixed(2)} ms; load ${load()}  (peak RSS ${rss()} MB)`,
);

// (b)
const fast = await emulatorProcess(0, 18182);
const jb = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [fast.url], concurrency: 16 }));
await run(jb, 64, -5000);
const Nb = 1000;
const cpu0 = process.cpuUsage();
const eb0 = fast.cpuSeconds();
const sb = await run(jb, Nb, 10_000);
const cpu = process.cpuUsage(cpu0);
const eb = fast.cpuSeconds() - eb0;
fast.stop();
console.log(
  `(b) 0 ms emulator: ${(Nb / sb).toFixed(0)} calls/s; client CPU ${((cpu.user + cpu.system) / 1000 / Nb).toFixed(2)} ms per call, emulator ${((1000 * eb) / Nb).toFixed(2)} ms per request; load ${load()}  (peak RSS ${rss()} MB)`,
);
const fresh = new ImageEncoder(768);
const e0 = performance.now();
for (let i = 0; i < 20; i++) await fresh.fromRaw(await resizeImage(base[i % 4]!, 1280 - i, 720));
console.log(
  `    encoding a new 1280×720 image to a ≤ 768 px JPEG: ${((performance.now() - e0) / 20).toFixed(2)} ms (resize included)`,
);

// (c)
const dir = mkdtempSync(join(tmpdir(), 'kfb-bench-'));
const cache = new JudgeCache(join(dir, 'c.sqlite'));
const warm = await emulatorProcess(0, 18183);
const jc = new Judge(
  new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [warm.url], concurrency: 16 }),
  { cache },
);
await run(jc, 2000, 0);
warm.stop();
const Nc = 20_000;
const c0 = performance.now();
for (let i = 0; i < Nc; i++) await jc.ask(q(i % 2000));
const sc = (performance.now() - c0) / 1000;
console.log(
  `(c) warm cache: ${(Nc / sc).toFixed(0)} lookups/s (key hashing + SQLite read + parse)  (peak RSS ${rss()} MB)`,
);
cache.close();
