/**
 * bench/compass-jobs — `compass score --jobs N`: the same 8 mini videos (model `faithful`, 8 cases,
 * minimal prompts; no scan cache) scanned one at a time and N at a time, in the same run; prints the
 * speed-up (target ≥ 1.7× for --jobs 2) and the peak RSS.
 *   npx tsx bench/compass-jobs.ts [--jobs 2] [--runs 3]
 */
import { join, resolve } from 'node:path';
import { loadCases } from '../src/compass/cases.js';
import { scoreModels } from '../src/compass/score.js';
import { buildMiniCompass } from '../src/dev/mini-compass/build.js';
import { createBuiltinEmbedder } from '../src/embed/builtin.js';

const ROOT = resolve(import.meta.dirname, '..');
const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const jobs = arg('--jobs', 2);
const runs = arg('--runs', 3);
const p = await buildMiniCompass(join(ROOT, 'bench', 'out', 'mini-compass'));
const cases = await loadCases(p.cases);
const embedder = createBuiltinEmbedder();
const time = async (j: number) => {
  const t = performance.now();
  const r = await scoreModels({
    cases,
    videos: p.videos,
    models: ['faithful'],
    modes: ['minimal'],
    embedder,
    jobs: j,
  });
  if (r.rows.length !== 8) throw new Error(`expected 8 rows, got ${r.rows.length}`);
  return (performance.now() - t) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
await time(1); // warm-up: files in the page cache, code compiled
const one: number[] = [];
const many: number[] = [];
for (let r = 0; r < runs; r++) {
  one.push(await time(1));
  many.push(await time(jobs));
}
console.log(`| 8 videos (medians of ${runs}) | seconds |\n|---|---|`);
console.log(`| --jobs 1 | ${median(one).toFixed(2)} |`);
console.log(`| --jobs ${jobs} | ${median(many).toFixed(2)} |`);
console.log(`| speed-up | **${(median(one) / median(many)).toFixed(2)}×** |`);
console.log(`\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
