/**
 * The library functions the commands call for their work, in one object: the real ones by
 * default, fakes in the parser tests (`buildProgram(fakes)`), which then check what each command
 * line becomes without decoding, judging or spawning anything.
 */
import { evaluateCompassRun, planCompassEvaluation } from '../compass/run-evaluate.js';
import { compassSensitivity, scoreCompass } from '../compass/run-score.js';
import { buildChainsRun, selectRun } from '../hero/run.js';
import { rebuildTrack } from '../hero/track/rebuild.js';
import { evaluateHeroFolder } from '../report/hero-outputs.js';

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
