/**
 * The viewer ranks as the command line does (issue 57 item 3): the six-metric table is sorted by
 * `compass score`'s key — the mean of KF fidelity and temporal organization, best first — and says
 * so, not by the keyframe-fidelity chart (which put `repeated` above `faithful`).
 */
import { describe, expect, it } from 'vitest';
import { METRICS, type ResponseSummary, type SummaryCell } from '../../src/compass/schemas/response.js';
import { compassTable } from '../../src/report/compass.js';
import { responseTables } from '../../src/web/pages/home.js';

const cell = (kf: number, to: number): SummaryCell => ({
  n: 16,
  metrics: Object.fromEntries(METRICS.map((m) => [m, kf])) as SummaryCell['metrics'],
  groups: { keyframe_fidelity: kf, temporal_organization: to },
});

const model = (kf: number, to: number) => ({
  all: cell(kf, to),
  coverage: { present: 16, expected: 16 },
  by_keyframes: {},
  by_structure: {},
  by_prompt_mode: {},
  by_conditioning: {},
});

// repeated has the higher keyframe fidelity, faithful the higher mean of the two groups
const summary: ResponseSummary = {
  embedder: 'builtin',
  gamma: 0.76,
  missing: 'zero',
  segmenter: 'pixel',
  models: { repeated: model(0.97, 0.6), swapped: model(0.96, 0.5), faithful: model(0.95, 1) },
};

describe("the viewer's six-metric table", () => {
  it("is in compass score's order, with its sort key said", () => {
    const page = String(responseTables(summary));
    const table = page.slice(page.indexOf('compass-scores'));
    const order = [...table.matchAll(/<tr data-model="([^"]+)"/g)].map((m) => m[1]).slice(0, 3);
    expect(order).toEqual(['faithful', 'repeated', 'swapped']);
    // the terminal's order
    const terminal = compassTable(summary)
      .split('\n')
      .map((l) => l.split(/\s+/)[0])
      .filter((w) => ['faithful', 'repeated', 'swapped'].includes(w!));
    expect(order).toEqual(terminal);
    expect(page).toContain('sorted by the mean of KF fidelity and temporal org., best first');
  });
});
