import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MEDIA = join(ROOT, 'test', 'fixtures', 'media');
export const media = (name: string) => join(MEDIA, name);

export function tempDir(prefix = 'kfbench-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
