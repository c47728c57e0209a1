/**
 * Checks the README's count of the suite against the run that is happening: when every test file
 * ran (a whole-suite run, not a chosen few), the number of files and of tests (skipped included)
 * must be those bench/readme-figures.json records and the README states (rendered from it by
 * bench/readme-figures.ts). A different count fails the run with one line saying what to do;
 * `KFBENCH_RECORD_SUITE=1 npm test` records the counts of the run instead.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { RECORD, readFigures, writeFigures } from '../../bench/readme-figures.js';
import { ROOT } from './paths.js';

/** The test files on disk, as `include` (test/**\/*.test.ts) finds them. */
export function testFilesOnDisk(root = ROOT): number {
  return readdirSync(join(root, 'test'), { recursive: true }).filter((f) => String(f).endsWith('.test.ts'))
    .length;
}

export default class SuiteFiguresReporter implements Reporter {
  private vitest?: Vitest;

  /** `root`: the project whose test/ folder is the suite; `record`: its figures file. */
  constructor(private readonly where: { root: string; record: string } = { root: ROOT, record: RECORD }) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    if (this.vitest?.config.testNamePattern || modules.length !== testFilesOnDisk(this.where.root)) return;
    const tests = modules.reduce((sum, m) => sum + [...m.children.allTests()].length, 0);
    const figures = readFigures(this.where.record);
    const { suite } = figures;
    if (suite.files === modules.length && suite.tests === tests) return;
    if (process.env.KFBENCH_RECORD_SUITE === '1') {
      writeFigures({ ...figures, suite: { ...suite, files: modules.length, tests } }, this.where.record);
      console.error(
        `\nsuite-figures: recorded ${modules.length} test files and ${tests} tests in bench/readme-figures.json`,
      );
      return;
    }
    console.error(
      `\nsuite-figures: this run has ${modules.length} test files and ${tests} tests, but bench/readme-figures.json ` +
        `(and so the README) says ${suite.files} and ${suite.tests}: record them with \`KFBENCH_RECORD_SUITE=1 npm test\` ` +
        '(or bench/record-ci.ts from a CI log), then `npx tsx bench/readme-figures.ts --write`',
    );
    process.exitCode = 1;
  }
}
