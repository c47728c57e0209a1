/**
 * Prompt templates are plain files in `assets/prompts/` (editable). A template's version is the
 * hash of its text, so editing it changes every cache key that uses it. `{{name}}` placeholders
 * are filled with caller-supplied text (benchmark wording arrives here as plain strings).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BadInputError } from '../errors.js';
import { sha256Hex } from '../store/canonical.js';
import { readTextFile } from '../store/limits.js';

export interface Template {
  name: string;
  text: string;
  version: string;
  /**
   * Text from the data bound to placeholders of `text` (a film's title, synopsis…), substituted in
   * the same single pass as the caller's: data is never read again as a template.
   */
  vars?: Readonly<Record<string, string>>;
}

/** The most characters a rendered prompt may have (issue 55: a template or data that explodes). */
export const MAX_PROMPT_CHARS = 8 * 1024 * 1024;

const DIR = fileURLToPath(new URL('../../assets/prompts/', import.meta.url));
const loaded = new Map<string, Template>();

export function loadTemplate(name: string, dir = DIR): Template {
  const file = join(dir, `${name}.md`);
  let t = loaded.get(file);
  if (!t) {
    const text = readTextFile(file);
    t = { name, text, version: sha256Hex(text).slice(0, 12) };
    loaded.set(file, t);
  }
  return t;
}

/**
 * The template with each `{{name}}` replaced by its value, in one pass over the template (a value
 * is never scanned for placeholders); a name that is no own key of the values (`{{constructor}}`)
 * is left as it stands. A result longer than MAX_PROMPT_CHARS is refused before it is built whole.
 */
export function render(t: Template, vars: Record<string, string | number>): string {
  const all: Record<string, string | number> = Object.assign(Object.create(null), t.vars, vars);
  let size = t.text.length;
  const out = t.text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => {
    const v = Object.hasOwn(all, k) ? String(all[k]) : m;
    size += v.length - m.length;
    if (size > MAX_PROMPT_CHARS)
      throw new BadInputError(
        `the prompt rendered from template ${t.name} would be more than ${MAX_PROMPT_CHARS} characters (its {{${k}}} and the text put in its placeholders are too long)`,
      );
    return v;
  });
  return out.trim();
}
