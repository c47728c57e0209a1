/**
 * The README's figures. The table of what the mini sets are (section "Quickstart") states figures
 * of the generated material; each is checked here against the definitions the sets are built from,
 * so the table cannot drift from the code. The Quickstart's measured figures (the demo's time and
 * judge calls, the suite's size, the CI run) are rendered from bench/readme-figures.json, which
 * only the measuring scripts write; here the README is checked against that record, and the record
 * against what can be counted now; the demo test checks its judge calls against the demo it runs,
 * and test/support/suite-figures-reporter.ts its file and test counts against the run itself.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ciLines,
  parseTimeV,
  readFigures,
  readmeFigures,
  renderFigures,
  wrap,
} from '../bench/readme-figures.js';
import { DEMO_CHAINS_PER_FILM } from '../src/runs/demo-hero.js';
import { MINI_CASES } from '../src/synthetic/mini-compass/build.js';
import { AUDIO_MODELS, MODELS, QUALITY_MODELS } from '../src/synthetic/mini-compass/plans.js';
import { MINI_FILMS } from '../src/synthetic/mini-hero.js';
import { ROOT } from './support/paths.js';
import { testFilesOnDisk } from './support/suite-figures-reporter.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Lines of src/ (and the lockfile) changed since the demo's recorded commit past which it is stale. */
const DEMO_STALE_LINES = 1500;
/** The mini-set column of the table row whose first cell is `label`. */
function mini(label: string): string {
  const row = readme.split('\n').find((l) => l.startsWith(`| ${label} |`));
  expect(row, label).toBeDefined();
  return row!.split('|')[3]!.trim();
}

describe("the README's mini-set table", () => {
  it('states the films, their lengths, the chains and the frame track as the mini HeroFrame set is built', () => {
    // a film runs past its nominal length to the end of its last clip: its length and the track's
    // frames are what the measured demo built (bench/measure-demo.ts records them, issue 57 item 8)
    const built = readFigures().demo.mini;
    expect(built, 'bench/readme-figures.json records the mini set the demo built').toBeDefined();
    const nominal = MINI_FILMS.map((f) => f.seconds);
    expect(built!.film_s[0]).toBeGreaterThanOrEqual(Math.min(...nominal));
    expect(built!.film_s[1]).toBeGreaterThanOrEqual(Math.max(...nominal));
    expect(built!.track_frames).toBeGreaterThanOrEqual(nominal.reduce((a, b) => a + b, 0));
    expect(mini('HeroFrame films')).toBe(
      `${MINI_FILMS.length} films of ${built!.film_s[0]}–${built!.film_s[1]} s made with ffmpeg from procedural sources and CC0 photos, ${MINI_FILMS.length * DEMO_CHAINS_PER_FILM} chains of 6 (${DEMO_CHAINS_PER_FILM} a film)`,
    );
    expect(mini('frame track')).toBe(`${built!.track_frames.toLocaleString('en-US')} frames at 1 fps`);
  });

  it('states the cases and the fault "models" as the mini Compass set is built', () => {
    const structures = new Set(MINI_CASES.map((c) => c.structure));
    const counts = new Set(MINI_CASES.map((c) => c.n));
    expect(MINI_CASES).toHaveLength(structures.size * counts.size);
    expect(mini('Compass cases')).toBe(`${MINI_CASES.length}: one per structure and keyframe count`);
    const names = (l: readonly string[]) => l.map((m) => `\`${m}\``).join(', ');
    expect(mini('Compass "models"')).toBe(
      `generated faults: ${names(MODELS)} (response) and ${names(QUALITY_MODELS)} (quality) and ${names(AUDIO_MODELS)} (audio); every video has a sound track`,
    );
  });
});

describe("the README's measured figures", () => {
  const figures = readFigures();

  it('are the ones bench/readme-figures.json records, rendered by bench/readme-figures.ts', () => {
    expect(readmeFigures(readme)).toBe(wrap(renderFigures(figures)));
  });

  // the suite's test count is checked against the run itself (the reporter); the CI run is a
  // measurement of its commit, so it is only checked to be one suite run on both lines
  it("count the suite's files and workers as they are now; the CI run ran one suite on both lines", () => {
    expect(figures.suite.files).toBe(testFilesOnDisk());
    const workers = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8').match(/^\s*maxWorkers: (\d+),/m);
    expect(Number(workers?.[1])).toBe(figures.suite.workers);
    const [first, ...rest] = figures.ci.lines;
    for (const line of rest) {
      expect(line.files, line.node).toBe(first!.files);
      expect(line.tests, line.node).toBe(first!.tests);
    }
    // the two lines are the lowest and the newest release .ci/run installs
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8').match(/^for version in ([\d. ]+); do$/m);
    expect(figures.ci.lines.map((l) => l.node).join(' ')).toBe(ci?.[1]);
  });

  it.runIf(existsSync(join(ROOT, '.git')))('name commits of this repository', () => {
    for (const c of [figures.demo.commit, figures.ci.commit, figures.busy?.commit].filter(Boolean))
      expect(
        () => execFileSync('git', ['cat-file', '-e', `${c}^{commit}`], { cwd: ROOT, stdio: 'ignore' }),
        c,
      ).not.toThrow();
  });

  // the demo's figures describe the code the README ships with: a record measured at a commit whose
  // demo code has since changed a lot is stale (issue 57 item 9: the README said 200 CPU-s while the
  // demo cost three times that); re-measure with `npx tsx bench/measure-demo.ts`
  it.runIf(existsSync(join(ROOT, '.git')))("the demo was measured at a commit close to today's code", () => {
    const changed = execFileSync(
      'git',
      ['diff', '--numstat', figures.demo.commit, '--', 'src', 'package.json', 'package-lock.json'],
      { cwd: ROOT, encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .filter(Boolean)
      .reduce((a, l) => {
        const [added, removed] = l.split('\t');
        return a + (Number(added) || 0) + (Number(removed) || 0);
      }, 0);
    expect(changed, `lines of src/ changed since ${figures.demo.commit}: re-measure the demo`).toBeLessThan(
      DEMO_STALE_LINES,
    );
    expect(figures.demo.cold.voluntary_switches, 'the record has the context switches').toBeDefined();
  });

  it("are read from /usr/bin/time -v's report and Vitest's summaries as printed", () => {
    const time = [
      '\tCommand being timed: "bash .ci/run"',
      '\tUser time (seconds): 1116.76',
      '\tSystem time (seconds): 374.73',
      '\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:13:19.79',
      '\tMaximum resident set size (kbytes): 662328',
    ].join('\n');
    expect(parseTimeV(time)).toEqual({ wall_s: 4399.8, cpu_s: 1491.5, peak_rss_gb: 0.63 });
    const log = [
      'ci-node: v22.15.0 from the node package',
      ' Test Files  162 passed | 1 skipped (163)',
      '      Tests  1052 passed | 3 skipped (1055)',
      '   Duration  377.12s (transform 1.2s)',
      'ci: Node 22.15.0 passed in 393 s',
      'ci-node: v24.21.0 from the node package',
      ' \u001b[2mTest Files \u001b[22m 163 passed (163)',
      '      Tests  1055 passed (1055)',
      '   Duration  387.9s',
    ].join('\n');
    expect(ciLines(log, 500)).toEqual([
      { node: '22.15.0', line_s: 393, vitest_s: 377, files: 163, files_skipped: 1, tests: 1055, skipped: 3 },
      { node: '24.21.0', line_s: 500, vitest_s: 388, files: 163, files_skipped: 0, tests: 1055, skipped: 0 },
    ]);
    // a run with a failure is no measurement of the suite
    expect(() => ciLines(log.replace('1052 passed', '1 failed | 1051 passed'), 500)).toThrow(/22\.15\.0/);
  });
});
