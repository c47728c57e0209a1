/**
 * Worker threads run compiled code, in the tests as in use. A source module under `src/` that
 * starts a worker names its entry as `new URL('./name.js', import.meta.url)`: beside the compiled
 * module in `dist/` that file exists, beside the TypeScript source it does not. This Vite plugin
 * points such a URL at `dist/` when Vitest loads the source module, so the worker runs the build
 * (`npm test` builds first; `dist-check.ts` refuses a build older than the sources). Production
 * code knows nothing of it.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const ENTRY = /new URL\((['"])(\.{1,2}\/[^'"]+\.js)\1,\s*import\.meta\.url\)/g;

/** The compiled twin of a source module, e.g. src/a/b.ts → dist/a/b.js. */
export function distTwin(sourceFile: string): string {
  return join(DIST, relative(SRC, sourceFile)).replace(/\.ts$/, '.js');
}

export function workersFromDist(): Plugin {
  return {
    name: 'kfbench:workers-from-dist',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (!file.startsWith(`${SRC}/`) || !file.endsWith('.ts') || !code.includes('node:worker_threads'))
        return;
      const twin = pathToFileURL(distTwin(file)).href;
      let changed = false;
      const out = code.replace(ENTRY, (whole, quote: string, spec: string) => {
        // only a URL naming a module of ours that is compiled beside the source's twin
        const source = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        if (!existsSync(source)) return whole;
        changed = true;
        return `new URL(${quote}${spec}${quote}, ${JSON.stringify(twin)})`;
      });
      return changed ? { code: out, map: null } : undefined;
    },
  };
}
