/** A viewer page's HTML from its name: the one place that knows which page a name is. */
import { PROMPT_MODES, type PromptMode } from '../compass/cases/cases.js';
import { casePage } from './pages/case.js';
import { filmPage } from './pages/film.js';
import { homePage } from './pages/home.js';
import type { Site } from './site.js';

/** The HTML of a page, or null when there is no such page. */
export async function renderPage(site: Site, name: string): Promise<string | null> {
  if (name === 'index.html' || name === '') return homePage(site);
  let m = /^film-(.+)\.html$/.exec(name);
  if (m) return site.data.hero?.chains.has(m[1]!) ? filmPage(site, m[1]!) : null;
  m = /^case-([^~]+)(?:~([^~]+)~(.+))?\.html$/.exec(name);
  if (m) {
    const c = site.data.compass?.cases.find((x) => x.case_id === m![1]);
    if (!c) return null;
    if (m[2] === undefined) return casePage(site, c, undefined);
    const mode = m[2] as PromptMode;
    if (!PROMPT_MODES.includes(mode)) return null;
    return casePage(site, c, { mode, model: m[3]! });
  }
  return null;
}
