/**
 * How often the two Compass segmenters agree on the mini set: the pixel shot detector (as
 * `compass score` uses it) and the judge segmenter (seed E.2) answered by the VLM emulator, on
 * every mini model's minimal-prompt video — shot counts, and boundaries within ±2 frames.
 *   npx tsx scripts/compass-segmenter-agreement.ts [mini-compass folder]
 * (builds the mini set there if absent; default bench/out/mini-compass).
 */
import { join, resolve } from 'node:path';
import { loadCases } from '../src/compass/cases/cases.js';
import { boundariesOf, judgeSegments, segmenterAgreement } from '../src/compass/quality/segment.js';
import { cachedScan, ScanCache } from '../src/compass/scan/cache.js';
import { createBuiltinEmbedder } from '../src/embed/builtin.js';
import { ImageEncoder } from '../src/judge/images.js';
import { Judge } from '../src/judge/judge.js';
import { OpenAiBackend } from '../src/judge/openai.js';
import { probe } from '../src/media/probe.js';
import { startEmulator } from '../src/synthetic/emulator/server.js';
import { buildMiniCompass } from '../src/synthetic/mini-compass/build.js';

const ROOT = resolve(import.meta.dirname, '..');
const folder = resolve(process.argv[2] ?? join(ROOT, 'bench', 'out', 'mini-compass'));
const p = await buildMiniCompass(folder);
const cases = await loadCases(p.cases);
const emu = await startEmulator();
const judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url] }), {
  sampling: { max_tokens: 2048 },
});
const encoder = new ImageEncoder(384);
const embedder = createBuiltinEmbedder();
const cache = new ScanCache(join(folder, '..', 'segmenter-scan-cache.sqlite'));
const rows: { a: number[]; b: number[]; tolerance_s: number; label: string }[] = [];
try {
  for (const model of [...p.models, ...p.qualityModels])
    for (const c of cases) {
      const video = join(p.videos, model, `${c.case_id}__minimal.mp4`);
      const info = await probe(video);
      const { scan } = await cachedScan({ video, keyframes: c.keyframes }, embedder, {}, {}, cache);
      const seg = await judgeSegments({ judge, encoder, c, info });
      if ('unresolved' in seg) throw new Error(`${video}: ${seg.unresolved}`);
      rows.push({
        a: boundariesOf(scan.shots),
        b: boundariesOf(seg.shots),
        tolerance_s: 2 / info.fps,
        label: `${model}/${c.case_id}`,
      });
    }
} finally {
  cache.close();
  await emu.close();
}
for (const r of rows)
  if (r.a.length !== r.b.length || r.a.some((x, i) => Math.abs(x - r.b[i]!) > r.tolerance_s + 1e-9))
    console.log(
      `differ ${r.label}: pixel [${r.a.map((x) => x.toFixed(3)).join(', ')}] judge [${r.b.map((x) => x.toFixed(3)).join(', ')}]`,
    );
const s = segmenterAgreement(rows);
console.log(
  `${s.videos} videos: same shot count ${s.same_count} (${((100 * s.same_count) / s.videos).toFixed(1)} %), all boundaries within ±2 frames ${s.same_boundaries} (${((100 * s.same_boundaries) / s.videos).toFixed(1)} %); boundaries matched ${s.matched} of ${s.a_total} pixel / ${s.b_total} judge`,
);
