/**
 * Results for the viewer tests, made by the real commands on the mini sets: a copy of the mini
 * HeroFrame data whose first film's title and rubric carry HTML (as a stranger's data might), two
 * selection methods evaluated against the emulator over HTTP, and `compass evaluate` of two fault
 * models on the mini Compass cases (minimal prompts).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FilmChains } from '../../src/hero/dataset/schemas.js';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from './cli.js';
import { sharedMiniCompass } from './mini-compass.js';
import { sharedMiniHero } from './mini-hero.js';
import { tempDir } from './paths.js';

export const XSS_TITLE = 'Astronaut <img src=x onerror="window.__xss=1"> Diaries';
export const XSS_RULE = 'Prefer the frame where <img src=x onerror="window.__xss=2"> the face is sharp';
export const XSS_PRUNED = 'Prefer <script>window.__xss=3</script> darker frames';
export const HERO_METHODS = ['sharpest', 'uniform'];
export const COMPASS_MODELS = ['faithful', 'missing'];

export interface ViewerFixture {
  dir: string;
  mini: MiniHeroPaths;
  compass: MiniCompassPaths;
  data: string;
  film: string;
  results: string;
  compassResults: string;
}

async function must(args: string[]): Promise<void> {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`kfbench ${args.slice(0, 2).join(' ')} exited ${r.code}: ${r.stderr}`);
}

/** `k`: frames per film each selection method picks (more frames: wider placement rows on a film page). */
export async function buildViewerFixture(o: { k?: number } = {}): Promise<ViewerFixture> {
  const mini = await sharedMiniHero();
  const compass = await sharedMiniCompass();
  const dir = tempDir('kfbench-viewer-');
  const data = join(dir, 'heroframe');
  cpSync(mini.data, data, { recursive: true });
  const movies = readFileSync(join(data, 'data', 'movies.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const film = movies[0].movie_id as string;
  movies[0].title = XSS_TITLE;
  writeFileSync(join(data, 'data', 'movies.jsonl'), `${movies.map((m) => JSON.stringify(m)).join('\n')}\n`);
  // read as kfbench reads it: the mini chains are in the release's shape (order by gamma)
  const chains = FilmChains.parse(
    JSON.parse(
      readFileSync(join(data, 'data', 'chains.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .find((l) => l.includes(`"movie_id":"${film}"`))!,
    ),
  );
  const order: string[] = chains.chains[0]!.order;
  const rule = (id: string, text: string, round: number) => ({
    criterion_id: id,
    as_the_judge_read_it: text,
    source_pair: [order[0], order[1]],
    round,
  });
  writeFileSync(
    join(data, 'data', 'rubrics.jsonl'),
    `${JSON.stringify({
      movie_id: film,
      criteria: [rule('r1-0', XSS_RULE, 1), rule('r2-0', 'Prefer frames with the subject centred', 2)],
      pruned_by_phase_b: [rule('r1-1', XSS_PRUNED, 1)],
    })}\n`,
  );
  const emu = await startEmulator();
  const judge = `openai:kfbench-emulator@${emu.url}`;
  const results = join(dir, 'hero-results');
  const compassResults = join(dir, 'compass-results');
  try {
    for (const m of HERO_METHODS)
      await must([
        ...['hero', 'select', '--method', m, '--data', data, '--track', mini.track],
        ...['--out', join(dir, `${m}.jsonl`), '--k', String(o.k ?? 2)],
      ]);
    await must([
      ...['hero', 'evaluate', '--selections', ...HERO_METHODS.map((m) => join(dir, `${m}.jsonl`))],
      ...['--data', data, '--track', mini.track, '--judge', judge, '--cache', join(dir, 'hero.sqlite')],
      // pairwise, so that a film page's verdict panel has one row per chain image compared against
      ...['--out', results, '--bootstrap', '200', '--include-stills', '--protocol', 'pairwise'],
    ]);
    await must([
      ...['compass', 'evaluate', '--cases', compass.cases, '--videos', compass.videos],
      ...['--model', ...COMPASS_MODELS, '--modes', 'minimal', '--judge', judge, '--out', compassResults],
    ]);
  } finally {
    await emu.close();
  }
  return { dir, mini, compass, data, film, results, compassResults };
}
