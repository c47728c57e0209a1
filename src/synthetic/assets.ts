/** Files shipped with the package for the development tools (photographs). */
import { join } from 'node:path';
import { packageRoot } from '../store/package-root.js';

export function photoPath(name: string): string {
  return join(packageRoot(), 'assets', 'photos', name);
}
