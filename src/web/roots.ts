/**
 * The folders the viewer may serve files from, by name. A request names a root and a path inside
 * it; the path is refused (null → 404) when it is absolute, has an empty, "." or ".." segment, a
 * backslash or NUL, or when the real file (after following symlinks) lies outside the root's real
 * folder. Only regular files are served.
 */
import { realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

export class Roots {
  private readonly real = new Map<string, string>();

  /** Roots that do not exist are left out (the pages say what is missing). */
  add(name: string, dir: string | undefined): void {
    if (!dir) return;
    try {
      this.real.set(name, realpathSync(dir));
    } catch {
      // missing: nothing can be served from it
    }
  }

  has(name: string): boolean {
    return this.real.has(name);
  }

  /** The real path of `rel` inside root `name`, or null when it may not be served. */
  resolve(name: string, rel: string): string | null {
    const root = this.real.get(name);
    if (!root) return null;
    if (rel.includes('\0') || rel.includes('\\') || rel.startsWith('/')) return null;
    const parts = rel.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..')) return null;
    let real: string;
    try {
      real = realpathSync(join(root, ...parts));
      if (!statSync(real).isFile()) return null;
    } catch {
      return null;
    }
    return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep) ? real : null;
  }
}
