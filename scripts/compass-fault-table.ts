/**
 * The README's fault × metric table, from a `compass score` run over the mini Compass set
 * (`kfbench demo` writes one to kfbench-demo/compass-response/):
 *   npx tsx scripts/compass-fault-table.ts kfbench-demo/compass-response/response.jsonl
 * Each cell: the mean per-keyframe score of the keyframes the fault hits (all keyframes for
 * `faithful`), over every case and prompt mode; last column: the largest change of any per-keyframe
 * score among the keyframes it does not hit, against `faithful`.
 */
import { readFileSync } from 'node:fs';
import type { ResponseRow } from '../src/compass/schemas/response.js';
import { METRICS } from '../src/compass/schemas/response.js';
import { affected, MODELS } from '../src/synthetic/mini-compass/plans.js';

const rows: ResponseRow[] = readFileSync(
  process.argv[2] ?? 'kfbench-demo/compass-response/response.jsonl',
  'utf8',
)
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const key = (r: ResponseRow) => `${r.case_id}/${r.prompt_mode}`;
const faithful = new Map(rows.filter((r) => r.model === 'faithful').map((r) => [key(r), r]));
const lines = [
  `| model | keyframes hit | ${METRICS.join(' | ')} | others: max abs change |`,
  `|---|---|${METRICS.map(() => '---:').join('|')}|---:|`,
];
for (const model of MODELS) {
  const mine = rows.filter((r) => r.model === model);
  const sums = Object.fromEntries(METRICS.map((m) => [m, 0])) as Record<string, number>;
  let n = 0;
  let drift = 0;
  let hitCount = 0;
  for (const r of mine) {
    const hit =
      model === 'faithful' ? r.keyframes.map((_, i) => i) : affected(model, r.structure, r.n_keyframes);
    hitCount += hit.length;
    const base = faithful.get(key(r))!;
    r.keyframes.forEach((k, i) => {
      if (hit.includes(i)) {
        n++;
        for (const m of METRICS) sums[m]! += k.scores[m];
      } else
        for (const m of METRICS)
          drift = Math.max(drift, Math.abs(k.scores[m] - base.keyframes[i]!.scores[m]));
    });
  }
  const cells = METRICS.map((m) => (sums[m]! / n).toFixed(3));
  lines.push(
    `| ${model} | ${hitCount} of ${mine.reduce((s, r) => s + r.n_keyframes, 0)} | ${cells.join(' | ')} | ${model === 'faithful' ? '—' : drift.toFixed(3)} |`,
  );
}
console.log(lines.join('\n'));
