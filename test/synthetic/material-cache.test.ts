import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withDirLock } from '../../src/store/dir-lock.js';
import {
  type BuildFolder,
  copyFromMaterialCache,
  finishBuild,
  isBuilt,
  startBuild,
} from '../../src/synthetic/build-folder.js';
import { tempDir } from '../support/paths.js';

/** A builder that counts its builds and writes one file, as the mini builders do. */
function counter() {
  let builds = 0;
  const build = async (b: BuildFolder): Promise<void> => {
    builds++;
    await startBuild(b);
    await new Promise((r) => setTimeout(r, 50));
    writeFileSync(join(b.out, 'data.txt'), 'built');
    await finishBuild(b);
  };
  return { build, builds: () => builds };
}

describe('material cache', () => {
  it('builds once for parallel callers and copies a complete set into each folder', async () => {
    const root = tempDir();
    const c = counter();
    const folders = [0, 1, 2].map(
      (): BuildFolder => ({ out: join(tempDir(), 'set'), name: '.toy', version: '1', what: 'a toy set' }),
    );
    const used = await Promise.all(
      folders.map((b) => copyFromMaterialCache(b, (dir) => c.build({ ...b, out: dir }), root)),
    );
    expect(used).toEqual([true, true, true]);
    expect(c.builds()).toBe(1);
    for (const b of folders) {
      expect(await isBuilt(b)).toBe(true);
      expect(readFileSync(join(b.out, 'data.txt'), 'utf8')).toBe('built');
      expect(readdirSync(b.out).filter((f) => f.endsWith('.partial'))).toEqual([]);
    }
  });

  it('does nothing without a cache folder, and still refuses a folder that is not a set', async () => {
    const b: BuildFolder = { out: tempDir(), name: '.toy', version: '1', what: 'a toy set' };
    expect(await copyFromMaterialCache(b, async () => undefined, undefined)).toBe(false);
    writeFileSync(join(b.out, 'precious.txt'), 'keep');
    const c = counter();
    await expect(copyFromMaterialCache(b, (dir) => c.build({ ...b, out: dir }), tempDir())).rejects.toThrow(
      /is not a toy set/,
    );
    expect(readFileSync(join(b.out, 'precious.txt'), 'utf8')).toBe('keep');
    expect(c.builds()).toBe(0); // refused before building anything
  });
});

describe('withDirLock', () => {
  it('takes over a lock whose owner is gone', async () => {
    const lock = join(tempDir(), 'x.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), '2147483646'); // no such process
    expect(await withDirLock(lock, async () => 'ran')).toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });

  it('names the lock when a live owner holds it too long', async () => {
    const lock = join(tempDir(), 'y.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    await expect(withDirLock(lock, async () => 'ran', { staleMs: 300 })).rejects.toThrow(
      new RegExp(`lock ${lock.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} held`),
    );
  });
});
