/**
 * Vitest global setup: the build in `dist/` must be current. CLI tests spawn `node dist/cli/bin.js`
 * and worker threads run from `dist/` (dist-workers.ts), so a build older than any source file
 * would test old code: refuse to start, saying what to run.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distTwin } from './dist-workers.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}

export default function setup(): void {
  for (const src of sources(join(ROOT, 'src'))) {
    const js = distTwin(src);
    if (!existsSync(js) || statSync(js).mtimeMs < statSync(src).mtimeMs)
      throw new Error(`dist/ is missing or older than ${src}: run \`npm run build\` first (npm test does)`);
  }
}
