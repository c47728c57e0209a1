import { loadCompass } from './data-compass.js';
import { loadHero } from './data-hero.js';
import type { Problem, ViewerData, ViewerInputs } from './view-types.js';

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
