/**
 * The `--help` examples and the demo agree (issue 57 item 1): after `npm run demo` every example
 * that reads a mini set finds it where the demo wrote it (the demo's `--out` default, its viewer
 * inputs), and no example but `hero mini`/`compass mini` (which write nothing when the set is
 * there) writes into the demo's folder — `hero build`, which rewrites a dataset's chains, works on
 * its own copy under kfbench-examples/.
 */
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_DIR, EXAMPLES_DIR } from '../../src/cli/example-paths.js';
import { EXAMPLES } from '../../src/cli/help.js';
import { demoViewerInputs } from '../../src/synthetic/demo-viewer.js';
import { runCli } from '../support/cli.js';

const words = (line: string) => line.split(/\s+/).flatMap((w) => w.split(/[:,=]/));
const under = (dir: string) => (w: string) => w.startsWith(`${dir}/`);

describe('the examples read the mini sets the demo writes', () => {
  it("the demo writes to the examples' folder by default", async () => {
    const r = await runCli(['demo', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`--out <dir>\\s+where the demo writes \\(default: "${DEMO_DIR}"\\)`));
  });

  it('every path an example reads under the demo folder is in one of its two mini sets', () => {
    const demo = demoViewerInputs(DEMO_DIR);
    const sets = [dirname(demo.data), dirname(demo.cases)];
    expect(sets).toEqual([`${DEMO_DIR}/mini-hero`, `${DEMO_DIR}/mini-compass`]);
    const read = EXAMPLES.flatMap((e) => words(e.line).filter(under(DEMO_DIR)));
    expect(read.length).toBeGreaterThan(20);
    for (const p of read)
      expect(
        sets.some((s) => p === s || p.startsWith(`${s}/`)),
        p,
      ).toBe(true);
    // the dataset, track and cases the examples name are the ones the demo's viewer shows
    const all = EXAMPLES.map((e) => e.line).join(' ');
    for (const p of [demo.data, demo.track, demo.cases, demo.videos]) expect(all).toContain(p);
  });

  it('no example reads a mini set under kfbench-examples/ that nothing before it wrote', () => {
    const written = new Set<string>();
    for (const e of EXAMPLES) {
      for (const b of e.before ?? []) for (const w of words(b).filter(under(EXAMPLES_DIR))) written.add(w);
      for (const w of words(e.line).filter((x) => /^kfbench-examples\/mini-/.test(x)))
        expect(
          [...written].some((d) => w === d || w.startsWith(`${d}/`)),
          `${e.command} reads ${w}`,
        ).toBe(true);
    }
  });

  it('only hero mini and compass mini name an --out in the demo folder', () => {
    const writers = EXAMPLES.filter((e) => {
      const ws = e.line.split(/\s+/);
      return ws.some((w, i) => ws[i - 1] === '--out' && under(DEMO_DIR)(w));
    }).map((e) => e.command);
    expect(writers.sort()).toEqual(['compass mini', 'hero mini']);
  });
});
