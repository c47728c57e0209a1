/**
 * Writes docs/architecture.md: the layers of src/ (lint/layers.cjs, the list the import rules of
 * `npm run lint` are built from), the imports between folders as dependency-cruiser finds them on
 * the real module paths, and a walk through the two commands people run most.
 *   npx tsx scripts/architecture-doc.ts
 * test/architecture-doc.test.ts checks that the committed file is what this writes.
 */

import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

interface Layer {
  name: string;
  path: string;
  what: string;
  apart?: string[];
}

const require = createRequire(import.meta.url);

/** A module's unit in the drawing: its folder under src/ (`hero`, `media` …) or, at the root, its file. */
function unitOf(source: string): string {
  const m = /^src\/([^/]+)\//.exec(source);
  return m ? m[1]! : source.replace(/^src\//, '');
}

/** Folder → folder imports of src/, sorted: every pair with at least one import. */
export async function folderEdges(root: string): Promise<{ units: string[]; edges: [string, string][] }> {
  const cwd = process.cwd();
  process.chdir(root); // dependency-cruiser resolves against the working directory
  try {
    const result = await cruise(['src'], {
      ruleSet: { forbidden: [] },
      parser: 'swc',
      tsConfig: { fileName: 'tsconfig.json' },
      doNotFollow: { path: 'node_modules' },
      includeOnly: '^src/',
      enhancedResolveOptions: { extensions: ['.ts', '.js'] },
    });
    const output = result.output;
    if (typeof output === 'string') throw new Error('dependency-cruiser returned text, not a result');
    const units = new Set<string>();
    const edges = new Set<string>();
    for (const m of output.modules) {
      if (!m.source.startsWith('src/')) continue;
      const from = unitOf(m.source);
      units.add(from);
      for (const d of m.dependencies) {
        if (!d.resolved.startsWith('src/')) continue;
        const to = unitOf(d.resolved);
        if (to !== from) edges.add(`${from}\t${to}`);
      }
    }
    return {
      units: [...units].sort(),
      edges: [...edges].sort().map((e) => e.split('\t') as [string, string]),
    };
  } finally {
    process.chdir(cwd);
  }
}

const id = (unit: string) => unit.replace(/[^A-Za-z0-9]/g, '_');

const WALKS = `## Where a run's options become a run

A command's options become a run in one place: \`src/cli/*.ts\` parses the flags into the run's
typed input object and calls one library function; that function opens what it needs (judge,
embedder, caches), runs the benchmark and writes the outputs; the CLI prints what it returns.
Progress and errors travel up as typed events and typed errors; only \`src/cli\` prints them.

### \`kfbench hero evaluate\`
1. \`src/cli/hero-evaluate.ts\` parses the flags (selections, data, track, judge, protocol) into a
   \`HeroRunInput\` and calls \`evaluateHero\` (\`src/cli/impls.ts\`), which is \`evaluateHeroFolder\`.
2. \`evaluateHeroFolder\` (\`src/report/hero-outputs.ts\`) runs \`evaluateHeroRun\` (\`src/hero/run.ts\`):
   the judge is opened from its settings (\`src/judge/with-judge.ts\`, \`registry.ts\`, the SQLite
   cache in \`cache.ts\`), then \`evaluate\` (\`src/hero/evaluate.ts\`) checks the inputs
   (\`evaluate-inputs.ts\`: dataset, track, selections), inserts every frame into every chain of its
   film through the judge (\`src/judge/insertion.ts\`) and scores the placements
   (\`src/hero/score.ts\`: S, S@k, top-1, bootstrap intervals from \`src/stats\`).
3. \`writeHeroRun\` writes \`summary.json\`, \`per_film.csv\`, \`insertions.jsonl\`, \`report.md\`,
   \`report.html\` and the run's records (\`settings.json\`, \`outputs.json\`) into a staged folder that
   replaces the output folder whole (\`src/store\`); the CLI prints the table (\`src/report/hero.ts\`).

### \`kfbench compass evaluate\`
1. \`src/cli/compass-evaluate.ts\` parses the flags (cases, videos, models, embedder, judge, ranking)
   into a \`CompassEvaluateInput\` and calls \`evaluateCompassRun\` (\`src/compass/run-evaluate.ts\`), or
   \`planCompassEvaluation\` for \`--dry-run\`.
2. \`evaluateCompassRun\` loads the cases (\`src/compass/cases.ts\`), opens the embedder, the scan
   cache and the judge (\`src/compass/run.ts\`), scans every video once (\`src/compass/response/scan.ts\`:
   decoding through \`src/media/ffmpeg.ts\`, embedding through \`src/embed\`, shots and PSNR/SSIM
   through \`src/media\`), scores the six keyframe-response metrics (\`src/compass/response/*\`),
   judges the checklists and the grouped evidence questions (\`src/compass/quality/*\` through
   \`src/judge\`), and builds Overall and the leaderboards (\`src/compass/quality/leaderboard.ts\`).
3. The outputs (\`response.jsonl\`, \`evaluation.jsonl\`, \`checklists.jsonl\`, \`leaderboard.json\`,
   \`summary.json\`, \`settings.json\`, \`outputs.json\`) are written into a staged folder that replaces
   the output folder whole; the CLI prints the leaderboard (\`src/report/compass.ts\`).
`;

/** docs/architecture.md as the tree and lint/layers.cjs make it. */
export async function architectureDoc(root: string): Promise<string> {
  const { LAYERS } = require(join(root, 'lint', 'layers.cjs')) as { LAYERS: Layer[] };
  const { units, edges } = await folderEdges(root);
  const layerOf = (unit: string): Layer | undefined => {
    const path = unit.endsWith('.ts') ? `src/${unit}` : `src/${unit}/x.ts`;
    return LAYERS.find((l) => new RegExp(l.path).test(path));
  };
  const out: string[] = [
    '<!-- Generated by `npx tsx scripts/architecture-doc.ts` from lint/layers.cjs and the imports of src/ (dependency-cruiser). Do not edit: change those and regenerate. -->',
    '# Architecture',
    '',
    'The layers of `src/`, highest first. A module imports only from its own layer and the layers',
    'below it; the folders of one layer marked apart do not import each other; nothing forms a',
    'cycle. `npm run lint` checks all of it with dependency-cruiser on the resolved module paths',
    '(`.dependency-cruiser.cjs`, built from `lint/layers.cjs`, the one list of the layers).',
    '',
    '| layer | modules | what |',
    '|---|---|---|',
  ];
  for (const l of [...LAYERS].reverse()) {
    const mine = units.filter((u) => layerOf(u) === l);
    const apart = l.apart ? ' (apart from each other)' : '';
    out.push(`| ${l.name} | ${mine.map((u) => `\`${u}\``).join(', ')}${apart} | ${l.what} |`);
  }
  const stray = units.filter((u) => !layerOf(u));
  if (stray.length) out.push('', `Not in any layer (a lint error): ${stray.join(', ')}.`);
  out.push('', '## Imports between folders', '', '```mermaid', 'flowchart TB');
  for (const l of [...LAYERS].reverse()) {
    const mine = units.filter((u) => layerOf(u) === l);
    out.push(`  subgraph layer_${id(l.name)}["${l.name}"]`);
    for (const u of mine) out.push(`    ${id(u)}["${u}"]`);
    out.push('  end');
  }
  for (const [from, to] of edges) out.push(`  ${id(from)} --> ${id(to)}`);
  out.push('```', '', WALKS);
  return `${out.join('\n')}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(import.meta.url), '..', '..');
  writeFileSync(join(root, 'docs', 'architecture.md'), await architectureDoc(root));
}
