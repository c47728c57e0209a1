/**
 * kfbench from any folder (issue 57 item 6): the README's "From any folder" lines, run as printed
 * in the clone (the build aside: dist/ is built before the suite; the install into a temporary
 * prefix, so the machine's global install is not touched, and offline), give a `kfbench` command that runs in a folder outside the repository and
 * writes there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../support/paths.js';

/** The sh block under the README's "From any folder" paragraph, one command a line. */
function installLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('**From any folder.**');
  expect(at, 'README.md has no "From any folder" paragraph').toBeGreaterThanOrEqual(0);
  const block = readme.slice(at).match(/```sh\n([\s\S]*?)```/);
  return block![1]!
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

describe('the installed command', () => {
  it('runs from a folder outside the clone after the README install', () => {
    const lines = installLines();
    // the build comes first; dist/ is built already (npm test builds first), and rebuilding it here
    // would rewrite files other test files are running
    expect(lines[0]).toBe('npm run build');
    const install = lines.slice(1);
    expect(install.some((l) => /^npm install -g /.test(l))).toBe(true);
    const prefix = tempDir('kfbench-prefix-');
    // npm and node of this run; the global prefix a temporary one
    const path = [join(prefix, 'bin'), dirname(process.execPath), process.env.PATH].join(':');
    const env = { ...process.env, PATH: path, npm_config_prefix: prefix, npm_config_offline: 'true' };
    for (const line of install) {
      const r = spawnSync('sh', ['-c', line], { cwd: ROOT, env, encoding: 'utf8' });
      expect(r.status, `${line}\n${r.stdout}${r.stderr}`).toBe(0);
    }
    const bin = join(prefix, 'bin', 'kfbench');
    expect(existsSync(bin)).toBe(true);
    // a folder outside the repository: no package.json, no node_modules above it
    const away = realpathSync(tempDir('kfbench-away-'));
    expect(away.startsWith(realpathSync(ROOT))).toBe(false);
    const version = spawnSync('kfbench', ['--version'], { cwd: away, env, encoding: 'utf8' });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    // a real command, writing into that folder (relative paths are the folder's)
    const demo = spawnSync('kfbench', ['demo', '--media-only', '--out', 'here'], {
      cwd: away,
      env,
      encoding: 'utf8',
    });
    expect(demo.status, demo.stderr).toBe(0);
    expect(existsSync(join(away, 'here', 'demo.mp4'))).toBe(true);
  });
});
