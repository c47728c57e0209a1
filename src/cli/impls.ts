/**
 * The library functions the commands call for their work, in one object: the real ones by
 * default, fakes in the parser tests (`buildProgram(fakes)`), which then check what each command
 * line becomes without decoding, judging or spawning anything.
 */

import { rebuildTrack } from '../hero/track/rebuild.js';
import { evaluateCompassRun, planCompassEvaluation } from '../runs/compass-evaluate.js';
import { compassSensitivity, scoreCompass } from '../runs/compass-score.js';
import { buildChainsRun } from '../runs/hero-build.js';
import { evaluateHeroFolder } from '../runs/hero-evaluate.js';
import { selectRun } from '../runs/hero-select.js';

export interface CliImpls {
  evaluateHero: typeof evaluateHeroFolder;
  buildChains: typeof buildChainsRun;
  select: typeof selectRun;
  rebuildTrack: typeof rebuildTrack;
  evaluateCompassRun: typeof evaluateCompassRun;
  planCompassEvaluation: typeof planCompassEvaluation;
  scoreCompass: typeof scoreCompass;
  compassSensitivity: typeof compassSensitivity;
}

export const LIBRARY: CliImpls = {
  evaluateHero: evaluateHeroFolder,
  buildChains: buildChainsRun,
  select: selectRun,
  rebuildTrack,
  evaluateCompassRun,
  planCompassEvaluation,
  scoreCompass,
  compassSensitivity,
};
