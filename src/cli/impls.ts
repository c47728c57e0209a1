/**
 * The library functions the commands call for their work, in one object: the real ones by
 * default, each module loaded when its function is first called (so that `--help` loads none of
 * them), fakes in the parser tests (`buildProgram(fakes)`), which then check what each command
 * line becomes without decoding, judging or spawning anything.
 */

import type { rebuildTrack } from '../hero/track/rebuild.js';
import type { evaluateCompassRun, planCompassEvaluation } from '../runs/compass-evaluate.js';
import type { compassSensitivity, scoreCompass } from '../runs/compass-score.js';
import type { buildChainsRun } from '../runs/hero-build.js';
import type { evaluateHeroFolder, planHeroRun } from '../runs/hero-evaluate.js';
import type { selectRun } from '../runs/hero-select.js';

export interface CliImpls {
  evaluateHero: typeof evaluateHeroFolder;
  planHero: typeof planHeroRun;
  buildChains: typeof buildChainsRun;
  select: typeof selectRun;
  rebuildTrack: typeof rebuildTrack;
  evaluateCompassRun: typeof evaluateCompassRun;
  planCompassEvaluation: typeof planCompassEvaluation;
  scoreCompass: typeof scoreCompass;
  compassSensitivity: typeof compassSensitivity;
}

const LOADERS = new WeakMap<object, () => Promise<unknown>>();

/** `load`'s function, its module loaded when it is first called. */
function lazy<F extends (...a: never[]) => Promise<unknown>>(load: () => Promise<F>): F {
  const call = async (...a: Parameters<F>) => (await load())(...a);
  LOADERS.set(call, load);
  return call as F;
}

/** The library function a lazy entry of LIBRARY calls (for the test that it is the exported one). */
export function loadedOf<F>(f: F): Promise<F> {
  const load = LOADERS.get(f as object);
  return load ? (load() as Promise<F>) : Promise.resolve(f);
}

export const LIBRARY: CliImpls = {
  evaluateHero: lazy(async () => (await import('../runs/hero-evaluate.js')).evaluateHeroFolder),
  planHero: lazy(async () => (await import('../runs/hero-evaluate.js')).planHeroRun),
  buildChains: lazy(async () => (await import('../runs/hero-build.js')).buildChainsRun),
  select: lazy(async () => (await import('../runs/hero-select.js')).selectRun),
  rebuildTrack: lazy(async () => (await import('../hero/track/rebuild.js')).rebuildTrack),
  evaluateCompassRun: lazy(async () => (await import('../runs/compass-evaluate.js')).evaluateCompassRun),
  planCompassEvaluation: lazy(
    async () => (await import('../runs/compass-evaluate.js')).planCompassEvaluation,
  ),
  scoreCompass: lazy(async () => (await import('../runs/compass-score.js')).scoreCompass),
  compassSensitivity: lazy(async () => (await import('../runs/compass-score.js')).compassSensitivity),
};
