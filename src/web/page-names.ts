/** The viewer's page names and their hrefs. */

export const filmPageName = (id: string) => `film-${id}.html`;
export const casePageName = (id: string, mode?: string, model?: string) =>
  mode === undefined ? `case-${id}.html` : `case-${id}~${mode}~${model}.html`;
/** A page name as an href (each character that needs it percent-encoded). */
export const pageHref = (name: string) => encodeURIComponent(name).replace(/%7E/gi, '~');
