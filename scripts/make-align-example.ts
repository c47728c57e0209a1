/**
 * The README's `compass align` example: automatic per-case scores from the mini Compass set and
 * MADE-UP human judgments — three simulated annotators who prefer the higher-scoring model with a
 * probability that grows with the score gap (seeded), and call near-equal pairs a tie. They are not
 * human data; they only show the analysis.
 *   npx tsx scripts/make-align-example.ts
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCases } from '../src/compass/cases/cases.js';
import { scoreModels } from '../src/compass/response/models.js';
import { createBuiltinEmbedder } from '../src/embed/builtin.js';
import { createRng } from '../src/stats/rng.js';
import { buildMiniCompass } from '../src/synthetic/mini-compass/build.js';

const ROOT = resolve(import.meta.dirname, '..');
const p = await buildMiniCompass(join(ROOT, 'bench', 'out', 'mini-compass'));
const models = ['faithful', 'missing', 'swapped', 'drift'];
const run = await scoreModels({
  cases: await loadCases(p.cases),
  videos: p.videos,
  models,
  modes: ['minimal'],
  embedder: createBuiltinEmbedder(),
});
const dims = ['keyframe_fidelity', 'temporal_organization'] as const;
const scores = run.rows.flatMap((r) =>
  dims.map((d) => ({ case_id: r.case_id, model: r.model, dimension: d, score: r.groups[d] })),
);
const score = new Map(scores.map((s) => [`${s.case_id}|${s.model}|${s.dimension}`, s.score]));
const rng = createRng('made-up-annotators');
const judgments = [];
for (const c of [...new Set(run.rows.map((r) => r.case_id))])
  for (const d of dims)
    for (let i = 0; i < models.length; i++)
      for (let j = i + 1; j < models.length; j++) {
        const [a, b] = rng.next() < 0.5 ? [models[i]!, models[j]!] : [models[j]!, models[i]!];
        const gap = score.get(`${c}|${a}|${d}`)! - score.get(`${c}|${b}|${d}`)!;
        for (const annotator of ['made-up-1', 'made-up-2', 'made-up-3']) {
          const u = rng.next();
          const pa = 1 / (1 + Math.exp(-12 * gap));
          const choice = Math.abs(gap) < 0.02 && u < 0.6 ? 'Tie' : u < pa ? 'A' : 'B';
          judgments.push({ case_id: c, model_a: a, model_b: b, dimension: d, annotator, choice });
        }
      }
const out = join(ROOT, 'test', 'fixtures', 'compass', 'align');
writeFileSync(join(out, 'scores.jsonl'), `${scores.map((s) => JSON.stringify(s)).join('\n')}\n`);
writeFileSync(join(out, 'judgments.jsonl'), `${judgments.map((s) => JSON.stringify(s)).join('\n')}\n`);
console.log(`${scores.length} scores, ${judgments.length} made-up judgments in ${out}`);
