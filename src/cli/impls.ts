/**
 * The library functions the commands call for their work, in one object: the real ones by
 * default, fakes in the parser tests (`buildProgram(fakes)`), which then check what each command
 * line becomes without decoding, judging or spawning anything.
 */
import { evaluateCompass } from '../compass/quality/evaluate.js';
import { scoreModels } from '../compass/score.js';
import { buildChains } from '../hero/build.js';
import { evaluate } from '../hero/evaluate.js';
import { runSelection } from '../hero/select/run.js';
import { rebuildTrack } from '../hero/track/rebuild.js';

export interface CliImpls {
  evaluateHero: typeof evaluate;
  buildChains: typeof buildChains;
  runSelection: typeof runSelection;
  rebuildTrack: typeof rebuildTrack;
  evaluateCompass: typeof evaluateCompass;
  scoreModels: typeof scoreModels;
}

export const LIBRARY: CliImpls = {
  evaluateHero: evaluate,
  buildChains,
  runSelection,
  rebuildTrack,
  evaluateCompass,
  scoreModels,
};
