/** Where files shipped with the package (prompt templates, viewer assets, photographs) live. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InternalError } from '../errors.js';

/** The package root: the folder holding package.json and assets/, found from this file (src/ or dist/). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'assets'))) return dir;
    dir = resolve(dir, '..');
  }
  throw new InternalError('cannot find the kfbench package root (assets/ missing)');
}
