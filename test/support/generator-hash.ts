/**
 * The key of a generated set shared between test files: the sha256 of the generator's source —
 * every module of src/ its entry file reaches through its imports (static and dynamic), and the
 * files of assets/ — so that editing a generator, or anything it calls, can never feed a set
 * built by the old code to the suite. It replaces hand-bumped version constants (issue 47 item 5).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from './paths.js';

/** The modules of src/ that `entry` reaches through its relative imports, itself included, sorted. */
export function sourceClosure(entry: string): string[] {
  const seen = new Set<string>();
  const todo = [resolve(ROOT, entry)];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts');
      if (existsSync(target)) todo.push(target);
    }
  }
  return [...seen].map((f) => relative(ROOT, f)).sort();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? filesUnder(p) : [p];
    })
    .sort();
}

/** The first 16 hex digits of the sha256 of the generator's sources and of assets/. */
export function generatorHash(entry: string): string {
  const h = createHash('sha256');
  const files = [...sourceClosure(entry), ...filesUnder(join(ROOT, 'assets')).map((f) => relative(ROOT, f))];
  for (const f of files) {
    h.update(`${f}\n`);
    h.update(readFileSync(join(ROOT, f)));
  }
  return h.digest('hex').slice(0, 16);
}
