/**
 * The rules of the code are the linter's, not only the docs': files planted in a temporary copy of
 * the tree fail `npm run lint`'s checks with the rule's message — an import that points up a layer,
 * between the benchmarks, round in a cycle, between Compass's scan and quality axis or between its two
 * axes, or a re-export within src/compass (dependency-cruiser with .dependency-cruiser.cjs, on the
 * resolved paths); an untyped throw, `as unknown as`, a command name where they do not belong, a
 * re-export anywhere outside src/index.ts, and a time limit on a test (Biome with the GritQL rules
 * in lint/); an export no module imports (knip) — and the same files written the allowed way pass.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './support/paths.js';

/** A copy of src/ and the rules' files, once per test file (planted files go into copies of it). */
function treeWith(planted: Record<string, string>): string {
  const dir = tempDir('kfbench-cruise-');
  for (const f of ['tsconfig.json', 'tsconfig.base.json', '.dependency-cruiser.cjs'])
    copyFileSync(join(ROOT, f), join(dir, f));
  cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(ROOT, 'lint'), join(dir, 'lint'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const [file, source] of Object.entries(planted)) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    writeFileSync(join(dir, file), source);
  }
  return dir;
}

function cruise(planted: Record<string, string>): { code: number; out: string } {
  const dir = treeWith(planted);
  const r = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'depcruise'),
    ['--config', '.dependency-cruiser.cjs', 'src'],
    { cwd: dir, encoding: 'utf8' },
  );
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

const importing = (from: string) => `import { a } from '${from}';\n\nexport const x = a;\n`;

describe('import rules enforced by dependency-cruiser on the resolved paths', () => {
  const forbidden: [string, string, RegExp][] = [
    [
      'src/hero/planted.ts',
      '../compass/response/models.js',
      /benchmarks-apart: src\/hero\/planted\.ts → src\/compass/,
    ],
    ['src/hero/select/planted.ts', '../../compass/cases/cases.js', /benchmarks-apart/],
    ['src/compass/planted.ts', '../hero/score.js', /benchmarks-apart/],
    ['src/compass/quality/planted.ts', '../../hero/evaluate/evaluate.js', /benchmarks-apart/],
    ['src/judge/planted.ts', '../index.js', /building-blocks-imports-down/],
    ['src/store/planted.ts', '../index.js', /building-blocks-imports-down/],
    ['src/hero/planted.ts', '../index.js', /benchmarks-imports-down/],
    ['src/media/planted.ts', '../hero/score.js', /building-blocks-imports-down/],
    ['src/compass/planted.ts', '../cli/program.js', /benchmarks-imports-down/],
    ['src/report/planted.ts', '../web/site.js', /reports-imports-down/],
    ['src/web/planted.ts', '../synthetic/demo-media.js', /viewer-imports-down/],
    ['src/errors.ts', './hero/score.js', /base-imports-down/],
    ['src/synthetic/planted.ts', '../runs/demo.js', /synthetic-imports-down/],
    ['src/report/planted.ts', '../runs/hero-evaluate.js', /reports-imports-down/],
    ['src/compass/planted.ts', '../runs/compass-evaluate.js', /benchmarks-imports-down/],
    ['src/runs/planted.ts', '../cli/program.js', /runs-imports-down/],
    ['src/runs/planted.ts', '../index.js', /runs-imports-down/],
    ['src/planted.ts', './errors.js', /no-unlayered/],
    // Compass by concept (issue 58 item 3): the scan knows nothing of quality, the axes nothing of each other
    [
      'src/compass/scan/planted.ts',
      '../quality/segment.js',
      /compass-scan-not-quality: src\/compass\/scan\/planted\.ts → src\/compass\/quality\/segment\.ts/,
    ],
    ['src/compass/scan/planted.ts', '../quality/eval-cache.js', /compass-scan-not-quality/],
    ['src/compass/scan/planted.ts', '../response/placement.js', /compass-scan-not-response/],
    ['src/compass/scan/planted.ts', '../run/evaluate.js', /compass-scan-not-response/],
    [
      'src/compass/quality/planted.ts',
      '../response/models.js',
      /compass-quality-not-response: src\/compass\/quality\/planted\.ts → src\/compass\/response\/models\.ts/,
    ],
    ['src/compass/quality/prompts/planted.ts', '../../response/report.js', /compass-quality-not-response/],
    ['src/compass/quality/planted.ts', '../run/evaluate.js', /compass-quality-not-response/],
    ['src/compass/quality/planted.ts', '../overall/leaderboard.js', /compass-quality-not-response/],
    ['src/compass/response/planted.ts', '../quality/segment.js', /compass-response-not-quality/],
    ['src/compass/response/planted.ts', '../overall/aggregate.js', /compass-response-not-quality/],
  ];
  for (const [file, from, message] of forbidden) {
    it(`${file} importing ${from} fails`, () => {
      const r = cruise({ [file]: importing(from) });
      expect(r.code, r.out).not.toBe(0);
      expect(r.out).toMatch(message);
    });
  }
  it('a cycle fails, a type-only import in it too', () => {
    const r = cruise({
      'src/store/planted-a.ts': "import { b } from './planted-b.js';\n\nexport const a = b;\n",
      'src/store/planted-b.ts':
        "import type { a } from './planted-a.js';\n\nexport const b: typeof a | 1 = 1;\n",
    });
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toMatch(/no-circular: src\/store\/planted-a\.ts/);
  });
  it('a re-export in src/compass fails (`export … from`, `export * from`, type-only too); importing the same name passes', () => {
    for (const source of [
      "export { loadCases } from '../cases/cases.js';\n",
      "export * from '../cases/cases.js';\n",
      "export type { LoadedCase } from '../cases/cases.js';\n",
    ]) {
      const r = cruise({ 'src/compass/quality/planted.ts': source });
      expect(r.code, r.out).not.toBe(0);
      expect(r.out).toMatch(
        /compass-no-re-export: src\/compass\/quality\/planted\.ts → src\/compass\/cases\/cases\.ts/,
      );
    }
    const ok = cruise({ 'src/compass/quality/planted.ts': importing('../cases/cases.js') });
    expect(ok.code, ok.out).toBe(0);
  });
  it('the tree as it is, and imports that point down, pass', () => {
    const r = cruise({
      'src/hero/planted.ts': importing('../judge/judge.js'),
      'src/compass/planted.ts': importing('../media/probe.js'),
      'src/hero/select/planted.ts': importing('../method.js'),
      'src/cli/planted.ts': importing('../index.js'),
      'src/web/planted.ts': importing('../report/compass.js'),
      'src/runs/planted.ts': importing('../synthetic/demo-media.js'),
      'src/cli/planted-run.ts': importing('../runs/hero-evaluate.js'),
      // the axes may read the scan, the file schemas and the cases; the run joins them
      'src/compass/quality/planted.ts': importing('../scan/segmenter.js'),
      'src/compass/response/planted.ts': importing('../scan/scan.js'),
      'src/compass/quality/planted-schema.ts': importing('../schemas/response.js'),
      'src/compass/run/planted.ts': importing('../quality/evaluate.js'),
      'src/compass/overall/planted.ts': importing('../response/models.js'),
    });
    expect(r.code, r.out).toBe(0);
  });
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

/** A function of `n` statement lines. */
const longFunction = (n: number) =>
  `export function f(): number {\n  let x = 0;\n${'  x += 1;\n'.repeat(n)}  return x;\n}\n`;

describe('size rules: a function of at most 80 lines in src (Biome), a source file of at most 350 (scripts/file-sizes.mjs)', () => {
  it('a function over 80 lines in src fails; the same in a test, or 78 lines in src, passes', () => {
    const long = lintSource('src/media/planted.ts', longFunction(80));
    expect(long.code, long.out).not.toBe(0);
    expect(long.out).toMatch(/noExcessiveLinesPerFunction/);
    expect(lintSource('test/planted.test.ts', longFunction(80)).code).toBe(0);
    const short = lintSource('src/media/planted.ts', longFunction(76));
    expect(short.code, short.out).toBe(0);
  });

  it('a source file over 350 lines fails with its name and length; 350 passes', () => {
    const dir = tempDir('kfbench-sizes-');
    mkdirSync(join(dir, 'src', 'media'), { recursive: true });
    const check = () =>
      spawnSync(process.execPath, [join(ROOT, 'scripts', 'file-sizes.mjs'), join(dir, 'src')], {
        encoding: 'utf8',
      });
    writeFileSync(join(dir, 'src', 'media', 'planted.ts'), 'export const x = 1;\n'.repeat(350));
    expect(check().status).toBe(0);
    writeFileSync(join(dir, 'src', 'media', 'planted.ts'), 'export const x = 1;\n'.repeat(351));
    const r = check();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/src\/media\/planted\.ts: 351 lines, over the 350-line limit/);
  });
});

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
    // issue 58 item 5: also the re-export dependency-cruiser misses (from a module the file imports too)
    [
      'src/compass/quality/planted.ts',
      "import { a } from '../cases/cases.js';\nexport { b } from '../cases/cases.js';\nexport const c = a;\n",
      /no re-export outside src\/index\.ts/,
    ],
    [
      'src/compass/scan/planted.ts',
      "// planted\nexport * from './scan.js';\n",
      /no re-export outside src\/index\.ts/,
    ],
    [
      'src/compass/planted.ts',
      "// planted\nexport type { T } from './schemas/scan.js';\n",
      /no re-export outside src\/index\.ts/,
    ],
    // and in every folder of src, not only src/compass
    [
      'src/hero/planted.ts',
      "// planted\nexport { a } from './b.js';\n",
      /no re-export outside src\/index\.ts/,
    ],
    [
      'src/synthetic/planted.ts',
      "// planted\nexport type { T } from './mini-hero.js';\n",
      /no re-export outside src\/index\.ts/,
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
    ['src/index.ts', "export { loadCases } from './compass/cases/cases.js';\n"],
  ];
  for (const [file, source] of allowed) {
    it(`${file}: ${source.split('\n').find((l) => l.includes('throw') || l.includes('as ')) ?? source.trim()} passes`, () => {
      const r = lintSource(file, source);
      expect(r.code, r.out).toBe(0);
    });
  }
});

describe('unused exports (knip in npm run lint, issue 58 item 5)', () => {
  /** A copy of the project's code (src, test, scripts, bench) with `append` added to files of it. */
  function knipTree(append: Record<string, string>): { code: number; out: string } {
    const dir = tempDir('kfbench-knip-');
    for (const f of ['package.json', 'knip.json', 'tsconfig.json', 'tsconfig.base.json', 'vitest.config.ts'])
      copyFileSync(join(ROOT, f), join(dir, f));
    for (const d of ['src', 'test', 'scripts', 'bench'])
      cpSync(join(ROOT, d), join(dir, d), {
        recursive: true,
        filter: (p) => !p.includes(`${join(ROOT, 'test', 'fixtures')}`),
      });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    for (const [file, text] of Object.entries(append)) appendFileSync(join(dir, file), text);
    const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'knip'), ['--no-progress', '--no-config-hints'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
  }

  it('the tree as it is has none; an export no module imports fails, naming it', () => {
    const ok = knipTree({});
    expect(ok.code, ok.out).toBe(0);
    const r = knipTree({ 'src/store/limits.ts': '\nexport const plantedUnused = 1;\n' });
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toMatch(/Unused exports \(1\)[\s\S]*plantedUnused\s+src\/store\/limits\.ts/);
  });
});
