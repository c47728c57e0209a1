/**
 * The figures the README's Quickstart states, as measured: `bench/readme-figures.json` is written
 * only by the scripts that ran the work (bench/measure-demo.ts for the demo, bench/record-ci.ts
 * from a `/usr/bin/time -v bash .ci/run` log for the suite and CI), and the README's paragraph
 * between the `figures` markers is rendered from it (`npx tsx bench/readme-figures.ts --write`).
 * test/readme-figures.test.ts checks the README says exactly what the record says; the demo test
 * checks the record's judge-call counts against the demo it runs, and the suite's own reporter
 * (test/support/suite-figures-reporter.ts) checks the record's file and test counts against the
 * run that is happening.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const RECORD = join(ROOT, 'bench', 'readme-figures.json');

/** One timed command: wall and CPU time and peak resident memory, from `/usr/bin/time -v`. */
export interface Timed {
  wall_s: number;
  cpu_s: number;
  peak_rss_gb: number;
  /** The CPU split into user and system time, and the voluntary context switches (when measured). */
  user_s?: number;
  sys_s?: number;
  voluntary_switches?: number;
}

/** Where and how a measurement ran. */
export interface Context {
  date: string;
  commit: string;
  node: string;
  /** The 1-minute load average just before the run. */
  load_before: number;
  /** What else ran on the machine: "nothing else running", "a busy loop holding one core", … */
  beside: string;
  command: string;
}

export interface DemoFigures extends Context {
  cold: Timed;
  warm: Timed;
  /** The judge calls the cold demo printed: building the chains, the baselines, the Compass quality axis. */
  calls: { chains: number; baselines: number; quality: number };
  /** The mini HeroFrame set the cold demo built: its films' shortest and longest length, its track frames. */
  mini?: { film_s: [number, number]; track_frames: number };
}

/** One Node line of a CI run: the line's seconds (npm ci + npm test) and Vitest's own. */
export interface CiLine {
  node: string;
  line_s: number;
  vitest_s: number;
  files: number;
  files_skipped: number;
  tests: number;
  skipped: number;
}

export interface CiFigures extends Context, Timed {
  lines: CiLine[];
}

export interface Figures {
  demo: DemoFigures;
  /** The whole suite: test files and tests (what `npm test` collects), Vitest workers. */
  suite: { files: number; tests: number; workers: number };
  ci: CiFigures;
  /** One Node line beside a busy loop holding one core, when measured. */
  busy?: CiFigures;
}

export function readFigures(file = RECORD): Figures {
  return JSON.parse(readFileSync(file, 'utf8')) as Figures;
}

export function writeFigures(f: Figures, file = RECORD): void {
  writeFileSync(file, `${JSON.stringify(f, null, 2)}\n`);
}

const n = (x: number) => x.toLocaleString('en-US');
const min = (s: number) => (s / 60).toFixed(1);
const gb = (x: number) => x.toFixed(2);
const load = (c: Context) => `load average ${c.load_before} before`;

/** ": 120 user + 40 system, 0.31 million voluntary context switches" when the record has them. */
function cpuSplit(t: Timed): string {
  if (t.user_s === undefined || t.sys_s === undefined || t.voluntary_switches === undefined) return '';
  return ` — ${Math.round(t.user_s)} user + ${Math.round(t.sys_s)} system, ${(t.voluntary_switches / 1e6).toFixed(2)} million voluntary context switches`;
}

/** The Quickstart's paragraph of figures, rendered from the record. */
export function renderFigures(f: Figures): string {
  const { demo, suite, ci, busy } = f;
  const [a, b] = ci.lines as [CiLine, CiLine];
  const skipped = a.skipped;
  return `Cold, it took ${min(demo.cold.wall_s)} min (${Math.round(demo.cold.cpu_s)} CPU-s${cpuSplit(demo.cold)}, peak RSS ${gb(demo.cold.peak_rss_gb)} GB; \
${n(demo.calls.chains)} judge calls to build the chains, ${n(demo.calls.baselines)} for the baselines, ${n(demo.calls.quality)} for the \
Compass quality axis); a second run took ${demo.warm.wall_s.toFixed(1)} s (${demo.warm.cpu_s.toFixed(1)} CPU-s): every judge answer \
and Compass scan comes from the caches, and the only video it reads is the 2-second shot-detection example, \`demo.mp4\` \
(one ffprobe, two ffmpeg: \`test/cli/demo.test.ts\` counts them). Measured ${demo.date} on Node ${demo.node} at ${demo.commit} \
on this project's 2-core machine, ${demo.beside} (${load(demo)}; \`${demo.command}\`).
\`npm test\` builds, type-checks, lints (Biome, dependency-cruiser, a file-size check and knip) and runs the test suite (${n(suite.files)} files, \
${n(suite.tests)} tests, in ${suite.workers === 3 ? 'three' : suite.workers} Vitest workers; on CI ${skipped} are skipped: the opt-in \
Slurm test; no test has a time limit — \`scripts/hang-guard.mjs\` ends a run only when nothing has moved for 10 min).
A fresh clone's \`CI=true bash .ci/run\`, which runs \`npm ci && npm test\` on Node ${a.node} and again on Node ${b.node}, \
took ${min(ci.wall_s)} min (${n(Math.round(ci.cpu_s))} CPU-s, peak RSS ${gb(ci.peak_rss_gb)} GB): ${a.line_s} s and ${b.line_s} s a line, \
Vitest ${a.vitest_s} s and ${b.vitest_s} s; ${ci.beside} (${load(ci)}), ${ci.date}, at ${ci.commit}, \`${ci.command}\`.
${busy ? `With ${busy.beside}, one line (Node ${busy.lines[0]!.node}) took ${min(busy.wall_s)} min (${n(Math.round(busy.cpu_s))} CPU-s, ${load(busy)}, ${busy.date}); ` : ''}\
bench/RESULTS.md has runs on a machine loaded to 12–20 by other work (21–27 min a line).
(These figures are rendered from \`bench/readme-figures.json\`, which only the scripts that measured them write; the tests check \
them against what ran.)`;
}

/** Wall and CPU time and peak RSS from the report \`/usr/bin/time -v\` prints. */
export function parseTimeV(text: string): Timed {
  const field = (name: string) => {
    const m = text.match(new RegExp(`^\\s*${name}: (.+)$`, 'm'));
    if (!m) throw new Error(`no "${name}" in the /usr/bin/time -v report`);
    return m[1]!.trim();
  };
  const wall = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')
    .split(':')
    .reduce((acc, part) => acc * 60 + Number(part), 0);
  const cpu = Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)'));
  const rss = Number(field('Maximum resident set size \\(kbytes\\)')) / 1024 / 1024;
  const optional = (name: string) => text.match(new RegExp(`^\\s*${name}: (.+)$`, 'm'))?.[1]?.trim();
  const voluntary = optional('Voluntary context switches');
  return {
    wall_s: Math.round(wall * 10) / 10,
    cpu_s: Math.round(cpu * 10) / 10,
    peak_rss_gb: Math.round(rss * 100) / 100,
    ...(voluntary === undefined
      ? {}
      : {
          user_s: Math.round(Number(field('User time \\(seconds\\)')) * 10) / 10,
          sys_s: Math.round(Number(field('System time \\(seconds\\)')) * 10) / 10,
          voluntary_switches: Number(voluntary),
        }),
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the log's colour codes are removed
const ANSI = /\u001b\[[0-9;]*m/g;

/** The Node lines of a CI log, in order, with Vitest's counts. */
export function ciLines(log: string, wall: number): CiLine[] {
  const text = log.replace(ANSI, '');
  const parts = text.split(/^ci-node: v/m).slice(1);
  if (parts.length === 0) throw new Error('the log has no "ci-node: vX" line');
  return parts.map((p) => {
    const node = p.slice(0, p.indexOf(' '));
    const files = p.match(/^\s*Test Files\s+(\d+) passed(?: \| (\d+) skipped)? \((\d+)\)$/m);
    const tests = p.match(/^\s*Tests\s+(\d+) passed(?: \| (\d+) skipped)? \((\d+)\)$/m);
    const duration = p.match(/^\s*Duration\s+([\d.]+)s/m);
    if (!files || !tests || !duration)
      throw new Error(`Node ${node}: no Vitest summary of a passing run in the log`);
    const passed = p.match(new RegExp(`^ci: Node ${node.replace(/\./g, '\\.')} passed in (\\d+) s`, 'm'));
    return {
      node,
      line_s: passed ? Number(passed[1]) : Math.round(wall),
      vitest_s: Math.round(Number(duration[1])),
      files: Number(files[3]),
      files_skipped: Number(files[2] ?? 0),
      tests: Number(tests[3]),
      skipped: Number(tests[2] ?? 0),
    };
  });
}

/** The judge calls a cold demo prints: "calls: N to build chains, M for baselines" and "judge calls K, …". */
export function demoCalls(stdout: string): { chains: number; baselines: number; quality: number } {
  const hero = stdout.match(/^calls: (\d+) to build chains, (\d+) for baselines/m);
  const quality = stdout.match(/^judge calls (\d+), from the cache/m);
  if (!hero || !quality) throw new Error('the demo did not print its judge calls');
  return { chains: Number(hero[1]), baselines: Number(hero[2]), quality: Number(quality[1]) };
}

const BEGIN = '<!-- figures: rendered from bench/readme-figures.json by bench/readme-figures.ts -->';
const END = '<!-- /figures -->';

/** The README's text between the markers. */
export function readmeFigures(readme: string): string {
  const i = readme.indexOf(BEGIN);
  const j = readme.indexOf(END);
  if (i < 0 || j < i) throw new Error(`README.md: the figures markers are missing`);
  return readme.slice(i + BEGIN.length, j).trim();
}

/** Wraps at 100 columns, as the README is. */
export function wrap(text: string): string {
  return text
    .split('\n')
    .map((para) => {
      const out: string[] = [];
      let line = '';
      for (const w of para.split(' ')) {
        if (line && line.length + 1 + w.length > 100) {
          out.push(line);
          line = w;
        } else line = line ? `${line} ${w}` : w;
      }
      if (line) out.push(line);
      return out.join('\n');
    })
    .join('\n');
}

/**
 * The mini-set table's measured cells — the films' lengths and the track's frames, as the demo's
 * cold run built them (a film runs past its nominal length to the end of its last clip) — set from
 * the record.
 */
export function renderMiniCells(readme: string, f: Figures): string {
  const mini = f.demo.mini;
  if (!mini) return readme;
  return readme
    .replace(
      /(\| HeroFrame films \|[^|]*\| \d+ films of )\d+–\d+ s/,
      `$1${mini.film_s[0]}–${mini.film_s[1]} s`,
    )
    .replace(
      /(\| frame track \|[^|]*\| )[\d,]+ frames at 1 fps/,
      `$1${n(mini.track_frames)} frames at 1 fps`,
    );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = join(ROOT, 'README.md');
  const readme = renderMiniCells(readFileSync(file, 'utf8'), readFigures());
  const now = readmeFigures(readme);
  const want = wrap(renderFigures(readFigures()));
  if (process.argv.includes('--write')) {
    writeFileSync(file, readme.replace(now, want));
    console.log('README.md: figures rendered from bench/readme-figures.json');
  } else if (now !== want) {
    console.error(
      'README.md: the figures differ from bench/readme-figures.json (npx tsx bench/readme-figures.ts --write)',
    );
    process.exit(1);
  } else console.log('README.md: figures match bench/readme-figures.json');
}
