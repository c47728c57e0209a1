/**
 * The Node lines kfbench claims, and native modules that cannot load. A broken build is made for
 * real: a copy of the install whose node_modules lacks a module's binary (the rest are links to the
 * real packages, resolved through the links with --preserve-symlinks), and node:sqlite switched off
 * with Node's own flag. Each is one line naming the module, the Node version and the supported
 * lines, exit 4 — never a stack, never "bad input".
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JudgeCache } from '../../src/judge/cache.js';
import { isSupportedNode, SUPPORTED_NODE_RANGE } from '../../src/native.js';
import { type CliResult, runCommand } from '../support/cli.js';
import { media, ROOT, tempDir } from '../support/paths.js';

const run = (node: string, args: string[], cwd = ROOT) => runCommand(node, args, { cwd });

/**
 * An install of kfbench in a temporary folder: dist/ and every package are links to the real ones,
 * except the packages named in `without` (left out) and `hollow` (a folder of links to the real
 * package's entries but one).
 */
function brokenInstall(opts: { without?: string[]; hollow?: Record<string, string> }): string {
  const root = tempDir('kfbench-native-');
  copyFileSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(ROOT, 'dist'), join(root, 'dist'));
  const real = join(ROOT, 'node_modules');
  const nm = join(root, 'node_modules');
  mkdirSync(nm);
  const link = (name: string) => {
    if (opts.without?.includes(name)) return;
    const skip = opts.hollow?.[name];
    if (skip === undefined) {
      symlinkSync(join(real, name), join(nm, name));
      return;
    }
    mkdirSync(join(nm, name));
    for (const entry of readdirSync(join(real, name)))
      if (entry !== skip) symlinkSync(join(real, name, entry), join(nm, name, entry));
  };
  for (const entry of readdirSync(real)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      mkdirSync(join(nm, entry));
      for (const sub of readdirSync(join(real, entry))) link(`${entry}/${sub}`);
    } else link(entry);
  }
  return root;
}

const viaLinks = (root: string, args: string[]) =>
  run(
    process.execPath,
    ['--preserve-symlinks', '--preserve-symlinks-main', join(root, 'dist/cli/bin.js'), ...args],
    root,
  );

function expectOneBackendLine(r: CliResult, module: string): void {
  expect(r.code, r.stderr).toBe(4);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`cannot load the native module ${module}`);
  expect(lines[0]).toContain(`Node ${process.versions.node}`);
  expect(lines[0]).toContain(SUPPORTED_NODE_RANGE);
}

describe('the supported Node lines', () => {
  it('package.json "engines" says exactly the lines the code checks', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(SUPPORTED_NODE_RANGE);
  });

  it('each line from its lowest release on; nothing between or below', () => {
    for (const v of ['22.15.0', '22.15.1', '22.23.3', '24.0.0', '24.21.0'])
      expect(isSupportedNode(v), v).toBe(true);
    for (const v of ['20.20.2', '22.14.0', '22.13.1', '22.9.9', '23.11.0', '25.0.0', '18.20.0'])
      expect(isSupportedNode(v), v).toBe(false);
    expect(isSupportedNode(process.versions.node)).toBe(true);
  });

  // the machine's own Node, where it is of a line kfbench does not claim (Debian's image has 20)
  const others = (() => {
    try {
      return execFileSync('bash', ['-c', 'which -a node'], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((bin) => ({
          bin,
          version: execFileSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim(),
        }))
        .filter((n) => !isSupportedNode(n.version));
    } catch {
      return [];
    }
  })();
  it.skipIf(others.length === 0)(
    'an unsupported line is refused at start in one line, exit 4, before any work',
    async () => {
      const { bin, version } = others[0]!;
      const out = tempDir();
      const r = await run(bin, [
        join(ROOT, 'dist/cli/bin.js'),
        'cache',
        'stats',
        '--cache',
        join(out, 'c.sqlite'),
      ]);
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr.trim().split('\n')).toEqual([
        `kfbench: Node ${version} is not supported: kfbench runs on Node ${SUPPORTED_NODE_RANGE} (install one with a version manager, e.g. \`nvm install 24 && nvm use 24\` (or fnm's same commands), or your system's Node 22 or 24 package; \`node --version\` shows the line in use)`,
      ]);
      expect(readdirSync(out)).toEqual([]);
    },
  );
});

describe('a native module that cannot load is one line, exit 4', () => {
  it('sharp without its platform binary (@img/sharp-linux-x64 missing)', async () => {
    const root = brokenInstall({ without: ['@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64'] });
    // the same install with the binary decodes: the break is the missing binary, nothing else
    expect((await viaLinks(brokenInstall({}), ['media', 'dhash', media('astronaut.png')])).code).toBe(0);
    expectOneBackendLine(await viaLinks(root, ['media', 'dhash', media('astronaut.png')]), 'sharp');
    // a command that needs no image library still runs
    expect((await viaLinks(root, ['--version'])).code).toBe(0);
  });

  it('onnxruntime-node without its bin/ folder', async () => {
    const root = brokenInstall({ hollow: { 'onnxruntime-node': 'bin' } });
    const model = join(ROOT, 'test/fixtures/embed/tiny-vit.onnx');
    const r = await viaLinks(root, [
      'embed',
      'similarity',
      media('astronaut.png'),
      media('astronaut.jpg'),
      '--embedder',
      `onnx:${model}`,
    ]);
    expectOneBackendLine(r, 'onnxruntime-node');
  });

  it('node:sqlite switched off (--no-experimental-sqlite)', async () => {
    const dir = tempDir();
    const file = join(dir, 'c.sqlite');
    new JudgeCache(file).close();
    const r = await run(process.execPath, [
      '--no-experimental-sqlite',
      join(ROOT, 'dist/cli/bin.js'),
      'cache',
      'stats',
      '--cache',
      file,
    ]);
    expectOneBackendLine(r, 'node:sqlite');
  });
});

describe('a normal command prints nothing but its output', () => {
  it('npx kfbench --version and cache stats: empty stderr (no npm config warning, no experimental warning)', async () => {
    const env = { ...process.env };
    // run as a user would from the install, not under the test runner's npm
    for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
    const npx = (args: string[]) =>
      runCommand('npx', ['--no-install', 'kfbench', ...args], {
        env: { ...env, npm_config_ignore_scripts: 'true', npm_config_update_notifier: 'false' },
      });
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const v = await npx(['--version']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout.trim()).toBe(version);
    expect(v.stderr).toBe('');
    const file = join(tempDir(), 'c.sqlite');
    new JudgeCache(file).close();
    const s = await npx(['cache', 'stats', '--cache', file]);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toMatch(/^0 answers/);
    expect(s.stderr).toBe('');
  });
});
