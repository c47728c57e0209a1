/**
 * Records a CI run for the README from its log: run
 *   /usr/bin/time -v bash .ci/run > ci.log 2>&1          (in a fresh clone; or one line:
 *   /usr/bin/time -v bash scripts/ci-node.sh 22.15.0 > ci.log 2>&1)
 * then `npx tsx bench/record-ci.ts ci.log --as ci|busy --commit SHA --load L [--beside TEXT]`.
 * It reads each line's Node version, Vitest's file and test counts and duration, the line's
 * seconds and the `/usr/bin/time -v` report, writes them into bench/readme-figures.json (`ci`,
 * or `busy` for a run beside a busy loop), and the suite's counts (`suite`) from the run.
 */
import { readFileSync } from 'node:fs';
import {
  type CiFigures,
  type CiLine,
  ciLines,
  parseTimeV,
  readFigures,
  writeFigures,
} from './readme-figures.js';

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(name);
  const v = i > 0 ? process.argv[i + 1] : fallback;
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
}

const file = process.argv[2];
if (!file)
  throw new Error('usage: npx tsx bench/record-ci.ts LOG --as ci|busy --commit SHA --load L [--beside TEXT]');
const log = readFileSync(file, 'utf8');
const as = arg('--as', 'ci');
if (as !== 'ci' && as !== 'busy') throw new Error('--as is ci or busy');
const t = parseTimeV(log);
const lines = ciLines(log, t.wall_s);
const f = readFigures();
const run: CiFigures = {
  date: arg('--date', new Date().toISOString().slice(0, 10)),
  commit: arg('--commit'),
  node: lines.map((l) => l.node).join(', '),
  load_before: Number(arg('--load')),
  beside: arg('--beside', as === 'ci' ? 'nothing else running' : 'a busy loop holding one core beside it'),
  command:
    as === 'ci'
      ? '/usr/bin/time -v bash .ci/run'
      : `/usr/bin/time -v bash scripts/ci-node.sh ${lines[0]!.node}`,
  ...t,
  lines,
};
f[as] = run;
if (as === 'ci') {
  const [a] = lines as [CiLine];
  if (lines.some((l) => l.files !== a.files || l.tests !== a.tests))
    throw new Error('the Node lines ran different numbers of tests');
  f.suite = { ...f.suite, files: a.files, tests: a.tests };
}
writeFigures(f);
console.log(JSON.stringify(run, null, 2));
