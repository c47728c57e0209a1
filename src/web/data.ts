/**
 * What the viewer shows, read once at start from the folders it was given. Nothing here throws on
 * bad input: a missing folder, a malformed line or results from another dataset become `problems`
 * that the pages print, so the server always starts and says what is wrong.
 */
import { PROMPT_MODES, type PromptMode } from '../compass/cases/cases.js';
import { loadCompass } from './data-compass.js';
import { loadHero } from './data-hero.js';
import type { Problem, ViewerData, ViewerInputs } from './view-types.js';

export {
  type CompassResults,
  type CompassView,
  checklistKey,
  type HeroResults,
  type HeroView,
  hasVideo,
  type Problem,
  type ProposalRow,
  type ViewerData,
  type ViewerInputs,
  videoKey,
} from './view-types.js';

export async function loadViewerData(i: ViewerInputs): Promise<ViewerData> {
  const problems: Problem[] = [];
  const hero = await loadHero(i, problems);
  const compass = await loadCompass(i, problems);
  if (!hero && !compass)
    problems.push({
      area: 'hero',
      message: 'nothing to show: give --data (HeroFrame) and/or --cases (Compass)',
    });
  return { hero, compass, problems };
}

export const MODES: readonly PromptMode[] = PROMPT_MODES;
