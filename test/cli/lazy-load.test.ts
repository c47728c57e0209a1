/**
 * A command line loads only the module of the command it names (issue 58 item 6): `--version` and
 * `--help` read the command table (src/cli/commands.ts) and load none of the commands, and
 * `media probe` loads the media command and ffprobe's reader, not sharp, onnxruntime, the canvas,
 * the viewer's server, nor either benchmark. The modules are those the child resolves, by import
 * or require (test/support/module-trace.mjs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { runCommand } from '../support/cli.js';
import { ROOT, tempDir } from '../support/paths.js';

/** The modules `kfbench …args` loads: src paths (`cli/bin`) and packages (`sharp`). */
async function modulesOf(args: string[]): Promise<{ own: string[]; packages: string[]; stdout: string }> {
  const file = join(tempDir(), 'modules.txt');
  const r = await runCommand(
    process.execPath,
    [
      '--import',
      join(ROOT, 'test', 'support', 'module-trace.mjs'),
      join(ROOT, 'dist', 'cli', 'bin.js'),
      ...args,
    ],
    { env: { ...process.env, KFBENCH_TEST_MODULES: file, NODE_DISABLE_COMPILE_CACHE: '1' } },
  );
  expect(r.code, r.stderr).toBe(0);
  const urls = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const own = urls
    .map((u) => /\/dist\/(.+)\.js$/.exec(u)?.[1])
    .filter((p): p is string => p !== undefined && !p.includes('node_modules'))
    .sort();
  const packages = [
    ...new Set(
      urls.flatMap((u) => {
        const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u);
        return m?.[1] ? [m[1]] : [];
      }),
    ),
  ].sort();
  return { own, packages, stdout: r.stdout };
}

/** What a start needs before the command named: the entry, the error types, the table, the flag helpers. */
const START = [
  'cli/bin',
  'cli/commands',
  'cli/env',
  'cli/flags',
  'cli/impls',
  'cli/output',
  'cli/program',
  'errors',
  'judge/emulator-note',
  'native',
  'nearest',
  'store/fs-errors',
];
const HEAVY = [
  'sharp',
  'onnxruntime-node',
  '@napi-rs/canvas',
  'hono',
  '@hono/node-server',
  '@huggingface/hub',
];

describe('a command line loads the command it names, and no other', () => {
  it('--version and --help load the start and commander only', async () => {
    for (const flag of ['--version', '--help']) {
      const m = await modulesOf([flag]);
      expect(m.own, flag).toEqual(START);
      expect(m.packages, flag).toEqual(['commander']);
    }
  });

  it('media probe loads the media command and the probe, nothing of the benchmarks nor a heavy package', async () => {
    const m = await modulesOf(['media', 'probe', join(ROOT, 'test', 'fixtures', 'media', 'fade.mp4')]);
    expect(m.stdout).toMatch(/fade\.mp4: 320×180/);
    expect(m.own).toEqual(expect.arrayContaining([...START, 'cli/media', 'media/probe']));
    const others = m.own.filter((p) => !START.includes(p));
    expect(
      others.filter((p) => !/^(cli\/media|media|store)\/|^defined$/.test(p) && p !== 'cli/media'),
    ).toEqual([]);
    for (const p of ['media/quality', 'media/shots', 'media/grid', 'media/hash', 'media/sample'])
      expect(others, p).not.toContain(p);
    for (const pkg of HEAVY) expect(m.packages, pkg).not.toContain(pkg);
  });

  it("the root's --help, printed from the table alone, is the fully loaded program's", async () => {
    const full = (await buildProgram()).helpInformation();
    const m = await modulesOf(['--help']);
    expect(m.stdout.startsWith(full)).toBe(true);
  });
});
