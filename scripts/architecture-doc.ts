/**
 * Writes docs/architecture.md: the layers of src/ (lint/layers.cjs, the list the import rules of
 * `npm run lint` are built from), the imports between folders as dependency-cruiser finds them on
 * the real module paths, and a walk through the two commands people run most.
 *   npx tsx scripts/architecture-doc.ts
 * test/architecture-doc.test.ts checks that the committed file is what this writes.
 */

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
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

/** A module's unit inside src/compass: its folder there (`scan`, `quality` …); undefined outside. */
function compassUnitOf(source: string): string | undefined {
  return /^src\/compass\/([^/]+)\//.exec(source)?.[1];
}

/**
 * Folder → folder imports of src/, sorted: every pair with at least one import. `unit` names the
 * unit of a module (undefined: left out of the drawing); by default its folder under src/.
 */
export async function folderEdges(
  root: string,
  unit: (source: string) => string | undefined = unitOf,
): Promise<{ units: string[]; edges: [string, string][] }> {
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
      const from = unit(m.source);
      if (from === undefined) continue;
      units.add(from);
      for (const d of m.dependencies) {
        if (!d.resolved.startsWith('src/')) continue;
        const to = unit(d.resolved);
        if (to !== undefined && to !== from) edges.add(`${from}\t${to}`);
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

/** What each folder of src/compass holds (issue 58 item 3: one concept per folder). */
const COMPASS_FOLDERS: Record<string, string> = {
  cases:
    'cases.jsonl read and checked, `compass init`, the storyboard grid, the videos folder, the generation prompts',
  schemas:
    'one zod schema per file format (response, quality, evaluation, leaderboard, scan, align) and what they share',
  scan: 'a video read against its keyframes: stage 1 and 2, the γ-runs, the scan options, cache and worker pool; the segmenter signature',
  response:
    'the keyframe-response axis: the six metrics from a scan, placement, the per-video report, `scoreModels`, its files, sensitivity',
  quality:
    'the video-quality axis: checklists, the grouped judge, its groups, the evaluation cache, the judge segmenter, its prompts',
  overall: 'the two axes joined: Overall per video, case and model, the leaderboards and their tables',
  run: 'what a run shares (its input, tools, settings.json), the order of the axes (`evaluateCompass`) and the files of an evaluation',
  merge: 'sharded runs merged, the cases a shard takes',
  align: '`compass align` (human judgments against the automatic scores) and `compass export-scores`',
  check: 'the checks of the pipeline on material with known truth',
};

/** The Compass section: its folders, the imports between them, and the rules that keep them apart. */
async function compassLines(root: string): Promise<string[]> {
  const { units, edges } = await folderEdges(root, compassUnitOf);
  const { forbidden } = require(join(root, '.dependency-cruiser.cjs')) as {
    forbidden: { name: string; comment: string }[];
  };
  const out = [
    '## Compass by concept',
    '',
    '`src/compass` is one folder per concept (no module at its root); the lint rules below keep the',
    'scan apart from both axes and the two axes (response, quality) apart from each other — only',
    '`overall`, `run` and `merge` join them, and `run/evaluate.ts` orders them.',
    '',
    '| folder | what |',
    '|---|---|',
    ...units.map((u) => `| \`${u}\` | ${COMPASS_FOLDERS[u] ?? '(undescribed: add it to COMPASS_FOLDERS)'} |`),
    '',
    '```mermaid',
    'flowchart TB',
    ...units.map((u) => `  c_${id(u)}["${u}"]`),
    ...edges.map(([from, to]) => `  c_${id(from)} --> c_${id(to)}`),
    '```',
    '',
    'Rules (`.dependency-cruiser.cjs`; each fails on a planted breach in `test/lint-boundaries.test.ts`):',
    '',
    ...forbidden.filter((r) => r.name.startsWith('compass-')).map((r) => `- \`${r.name}\`: ${r.comment}.`),
    '',
  ];
  return out;
}

/**
 * One data-flow walk per command people run most: where its flags become its options object, the
 * run that takes the object, and what the run calls. The names here are checked by
 * test/architecture-doc.test.ts (each file exists and exports the name); the calls are read from
 * the run file's imports, so the walk follows the code.
 */
export const WALKS = [
  {
    command: 'kfbench hero evaluate',
    cli: 'src/cli/hero-evaluate.ts',
    parse: 'heroEvaluateInput',
    options: 'HeroFolderInput',
    run: 'evaluateHeroFolder',
    runFile: 'src/runs/hero-evaluate.ts',
  },
  {
    command: 'kfbench compass evaluate',
    cli: 'src/cli/compass-evaluate.ts',
    parse: 'compassEvaluateInput',
    options: 'CompassEvaluateInput',
    run: 'evaluateCompassRun',
    runFile: 'src/runs/compass-evaluate.ts',
  },
] as const;

/** The names a module imports from each module of src/ (`import { a, type B } from '../x.js'`), type-only names left out. */
export function importsOf(root: string, file: string): { from: string; names: string[] }[] {
  const src = readFileSync(join(root, file), 'utf8');
  const out: { from: string; names: string[] }[] = [];
  for (const m of src.matchAll(/^import (type )?\{([^}]*)\} from '(\.[^']+)';/gm)) {
    if (m[1]) continue;
    const names = m[2]!
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n && !n.startsWith('type '))
      .map((n) => n.split(' as ')[0]!.trim());
    const from = join(dirname(file), m[3]!).replace(/\.js$/, '.ts');
    if (names.length) out.push({ from, names });
  }
  return out;
}

/**
 * Every run of src/runs in one table, read from its source: the functions it exports, whether it
 * opens its tools with `withTools` (runs/tools.ts), its dry run (an exported `plan…`), and the
 * writers it calls (imports named `write…`).
 */
function runShapeLines(root: string): string[] {
  const dir = join(root, 'src', 'runs');
  const rows = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !['tools.ts', 'merge-options.ts'].includes(f))
    .sort()
    .map((f) => {
      const file = `src/runs/${f}`;
      const text = readFileSync(join(root, file), 'utf8');
      const fns = [...text.matchAll(/^export (?:async )?function (\w+)/gm)].map((m) => m[1]!);
      const names = importsOf(root, file).flatMap((i) => i.names);
      const tools = names.includes('withTools') ? '`withTools`' : '—';
      const plans = fns.filter((n) => /^plan/.test(n));
      const writers = names.filter((n) => /^write/.test(n));
      const list = (v: string[]) => (v.length ? v.map((n) => `\`${n}\``).join(', ') : '—');
      return `| \`${file}\` | ${list(fns)} | ${tools} | ${list(plans)} | ${list(writers)} |`;
    });
  return [
    '## The runs, one shape',
    '',
    'A command is one function of `src/runs/` (issue 58 item 1): it opens the tools its settings name',
    '(`withTools`, `src/runs/tools.ts`: judge, embedder, scan cache, closed together whatever happens),',
    'hands them to the benchmark function, which opens nothing, and hands the result to a writer; a',
    "dry run is a `plan…` function of its own. Read from each run's source (`scripts/architecture-doc.ts`).",
    '',
    '| run | exports | opens its tools with | dry run | writers |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ];
}

function walkLines(root: string): string[] {
  const out = [
    "## Where a run's options become a run",
    '',
    "A command's flags become its run's typed options object in one place, the CLI file; the run (one",
    'function of `src/runs/`, exported by `src/index.ts` as well) opens what it needs (judge, embedder,',
    'caches), calls the benchmark, writes the outputs and returns them; the CLI prints what it returns.',
    'Progress and errors travel up as typed events and typed errors; only `src/cli` prints them.',
    "Generated from the run files' imports (`scripts/architecture-doc.ts`, `WALKS`).",
  ];
  for (const w of WALKS) {
    const imports = importsOf(root, w.runFile);
    const list = (pick: (i: { from: string; name: string }) => boolean) =>
      imports
        .flatMap((i) => i.names.map((name) => ({ from: i.from, name })))
        .filter((i) => !/^[A-Z_0-9]+$/.test(i.name))
        .filter(pick)
        .map((i) => `\`${i.name}\` (\`${i.from}\`)`)
        .join(', ') || '—';
    const writer = (n: string) => /^write/.test(n);
    const benchmark = (f: string) => /^src\/(hero|compass)\//.test(f);
    out.push(
      '',
      `### \`${w.command}\``,
      '',
      `1. CLI: \`${w.cli}\` parses the flags with \`${w.parse}\` into a \`${w.options}\` (\`${w.runFile}\`).`,
      `2. Run: \`${w.run}\` (\`${w.runFile}\`) takes that object.`,
      `3. Benchmark functions it calls: ${list((i) => benchmark(i.from) && !writer(i.name))}.`,
      `4. Building blocks it calls: ${list((i) => !benchmark(i.from) && !writer(i.name))}.`,
      `5. Writers: ${list((i) => writer(i.name))}; the folder is staged and moved into place whole.`,
      `6. Back in \`${w.cli}\`: the result is printed (the renderers of \`src/report\`).`,
    );
  }
  return out;
}

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
  out.push('```', '', ...(await compassLines(root)), ...runShapeLines(root), ...walkLines(root), '');
  return `${out.join('\n')}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(import.meta.url), '..', '..');
  writeFileSync(join(root, 'docs', 'architecture.md'), await architectureDoc(root));
}
