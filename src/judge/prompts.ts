/**
 * Prompt templates are plain files in `assets/prompts/` (editable). A template's version is the
 * hash of its text, so editing it changes every cache key that uses it. `{{name}}` placeholders
 * are filled with caller-supplied text (benchmark wording arrives here as plain strings).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../store/canonical.js';
import { readTextFile } from '../store/limits.js';

export interface Template {
  name: string;
  text: string;
  version: string;
}

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

export function render(t: Template, vars: Record<string, string | number>): string {
  return t.text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)).trim();
}
