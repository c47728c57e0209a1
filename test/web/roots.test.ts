/** The viewer serves files only from its roots: no "..", no absolute paths, no symlink escapes. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Roots } from '../../src/web/roots.js';
import { tempDir } from '../support/paths.js';

describe('Roots', () => {
  const base = tempDir('kfbench-roots-');
  const root = join(base, 'root');
  mkdirSync(join(root, 'film'), { recursive: true });
  writeFileSync(join(root, 'film', 'a.jpg'), 'a');
  writeFileSync(join(base, 'secret.txt'), 'secret');
  mkdirSync(join(base, 'elsewhere'));
  writeFileSync(join(base, 'elsewhere', 'b.jpg'), 'b');
  symlinkSync(join(base, 'secret.txt'), join(root, 'film', 'link-out.jpg'));
  symlinkSync(join(base, 'elsewhere'), join(root, 'dir-out'));
  symlinkSync(join(root, 'film', 'a.jpg'), join(root, 'link-in.jpg'));
  const roots = new Roots();
  roots.add('images', root);
  roots.add('missing', join(base, 'nope'));

  it('serves regular files inside the root, also through a symlink that stays inside', () => {
    expect(roots.resolve('images', 'film/a.jpg')).toMatch(/root\/film\/a\.jpg$/);
    expect(roots.resolve('images', 'link-in.jpg')).toMatch(/root\/film\/a\.jpg$/);
  });

  it.each([
    '../secret.txt',
    'film/../../secret.txt',
    'film/./a.jpg',
    '/etc/hostname',
    'film//a.jpg',
    'film\\a.jpg',
    'film/a.jpg\0',
    'film',
    '',
    'film/link-out.jpg',
    'dir-out/b.jpg',
    'film/none.jpg',
  ])('refuses %j', (rel) => {
    expect(roots.resolve('images', rel)).toBeNull();
  });

  it('knows nothing of roots it was not given or that do not exist', () => {
    expect(roots.resolve('track', 'film/a.jpg')).toBeNull();
    expect(roots.has('missing')).toBe(false);
    expect(roots.resolve('missing', 'x.jpg')).toBeNull();
  });
});
