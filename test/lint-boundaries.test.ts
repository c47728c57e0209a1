/**
 * The import boundaries are the linter's, not only docs/development.md's: a file planted in a
 * temporary tree beside a copy of biome.json, importing across a boundary, fails Biome's
 * noRestrictedImports with the boundary's message; the same file importing downward passes.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './support/paths.js';

function lint(file: string, from: string): { code: number; out: string } {
  return lintSource(file, `import { a } from '${from}';\n\nexport const x = a;\n`, [
    '--only=style/noRestrictedImports',
  ]);
}

describe('import boundaries enforced by the linter', () => {
  const forbidden: [string, string, RegExp][] = [
    ['src/hero/planted.ts', '../compass/score.js', /HeroFrame \(src\/hero\) does not import Compass/],
    [
      'src/hero/select/planted.ts',
      '../../compass/cases.js',
      /HeroFrame \(src\/hero\) does not import Compass/,
    ],
    ['src/compass/planted.ts', '../hero/score.js', /Compass \(src\/compass\) does not import HeroFrame/],
    [
      'src/compass/quality/planted.ts',
      '../../hero/evaluate.js',
      /Compass \(src\/compass\) does not import HeroFrame/,
    ],
    ['src/judge/planted.ts', '../index.js', /does not import the public barrel/],
    ['src/store/planted.ts', '../index.js', /does not import the public barrel/],
    ['src/hero/planted.ts', '../index.js', /does not import the public barrel/],
    ['src/media/planted.ts', '../hero/score.js', /building blocks .* know nothing of either benchmark/],
    ['src/compass/planted.ts', '../cli/program.js', /does not import the renderers/],
  ];
  for (const [file, from, message] of forbidden) {
    it(`${file} importing ${from} fails`, () => {
      const r = lint(file, from);
      expect(r.code, r.out).not.toBe(0);
      expect(r.out).toContain('lint/style/noRestrictedImports');
      expect(r.out).toMatch(message);
    });
  }
  const allowed: [string, string][] = [
    ['src/hero/planted.ts', '../judge/judge.js'],
    ['src/compass/planted.ts', '../media/probe.js'],
    ['src/hero/select/planted.ts', '../method.js'],
    ['src/cli/planted.ts', '../index.js'],
  ];
  for (const [file, from] of allowed) {
    it(`${file} importing ${from} passes`, () => {
      const r = lint(file, from);
      expect(r.code, r.out).toBe(0);
    });
  }
});

/** Lints one planted file (with biome.json and its GritQL plugins copied beside it). */
function lintSource(file: string, source: string, flags: string[] = []): { code: number; out: string } {
  const dir = tempDir('kfbench-lint-');
  copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
  cpSync(join(ROOT, 'lint'), join(dir, 'lint'), { recursive: true });
  mkdirSync(join(dir, dirname(file)), { recursive: true });
  writeFileSync(join(dir, file), source);
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['lint', '--colors=off', ...flags, file], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describe('code rules enforced by the linter (lint/*.grit)', () => {
  const forbidden: [string, string, RegExp][] = [
    [
      'src/media/planted.ts',
      "export function f(): never {\n  throw new Error('x');\n}\n",
      /typed errors only/,
    ],
    [
      'src/hero/planted.ts',
      "export function f(): never {\n  throw new RangeError('x');\n}\n",
      /typed errors only/,
    ],
    ['src/judge/planted.ts', 'export const x = (1 as unknown as string).length;\n', /no `as unknown as`/],
    ['src/store/planted.ts', "export const kinds = ['hero evaluate', 'compass score'];\n", /names a command/],
    [
      'test/planted.test.ts',
      "import { it } from 'vitest';\nit('x', () => {}, 300_000);\n",
      /no time limit on a test or hook/,
    ],
    [
      'test/planted.test.ts',
      "import { beforeAll } from 'vitest';\nbeforeAll(async () => {}, 600_000);\n",
      /no time limit on a test or hook/,
    ],
  ];
  for (const [file, source, message] of forbidden) {
    it(`${file}: ${source.split('\n')[1] ?? source.trim()} fails`, () => {
      const r = lintSource(file, source);
      expect(r.code, r.out).not.toBe(0);
      expect(r.out).toMatch(message);
    });
  }
  const allowed: [string, string][] = [
    [
      'src/media/planted.ts',
      "import { InternalError } from '../errors.js';\n\nexport function f(): never {\n  throw new InternalError('x');\n}\n",
    ],
    ['test/planted.test.ts', "export function f(): never {\n  throw new Error('x');\n}\n"],
    ['test/planted.test.ts', 'export const x = (1 as unknown as string).length;\n'],
    ['src/compass/planted.ts', "export const kinds = ['compass score'];\n"],
  ];
  for (const [file, source] of allowed) {
    it(`${file}: ${source.split('\n').find((l) => l.includes('throw') || l.includes('as ')) ?? source.trim()} passes`, () => {
      const r = lintSource(file, source);
      expect(r.code, r.out).toBe(0);
    });
  }
});
