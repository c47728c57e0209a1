/** Where `kfbench demo` leaves what the viewer shows (for the demo's own hint, the bench and the screenshots). */
import { join } from 'node:path';
import type { ViewerInputs } from '../web/view-types.js';

/** The viewer's inputs, each of them given. */
type DemoViewerInputs = { [K in keyof Omit<ViewerInputs, 'layout'>]-?: Exclude<ViewerInputs[K], undefined> };

export function demoViewerInputs(
  out: string,
  compassResults = [join(out, 'compass-response'), join(out, 'compass-eval')],
): DemoViewerInputs {
  return {
    data: join(out, 'mini-hero', 'heroframe'),
    track: join(out, 'mini-hero', 'track'),
    results: [join(out, 'hero-eval')],
    cases: join(out, 'mini-compass', 'cases.jsonl'),
    videos: join(out, 'mini-compass', 'videos'),
    compassResults,
  };
}

/** The `kfbench serve` command line for those inputs, as it runs from the repository root. */
export function serveCommand(i: DemoViewerInputs): string {
  return [
    'npx kfbench serve',
    `--data ${i.data} --track ${i.track} --results ${i.results.join(' ')}`,
    `--cases ${i.cases} --videos ${i.videos} --compass-results ${i.compassResults.join(' ')}`,
  ].join(' ');
}
