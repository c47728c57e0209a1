/** `compass check-pipeline`'s table: each identity, what it asks, the value it got, whether it holds. */
import type { PipelineCheck } from '../compass/check/identities.js';

const num = (v: number) => (Number.isFinite(v) ? (Math.round(v * 1e6) / 1e6).toString() : String(v));

export function pipelineCheckLines(checks: readonly PipelineCheck[]): string[] {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(
      `== ${c.case_id}: keyframes rendered at ${c.targets.map((t) => `${num(t)} s`).join(', ')} (${c.width}×${c.height}, ${c.fps} fps)`,
    );
    const w = Math.max(...c.checks.map((x) => `${x.identity} · ${x.check}`.length));
    for (const x of c.checks)
      lines.push(
        `${x.holds ? 'holds ' : 'FAILS '} ${`${x.identity} · ${x.check}`.padEnd(w)}  ${x.expected.padEnd(9)} got ${num(x.value)}`,
      );
    lines.push(
      c.holds
        ? `${c.checks.length} identities hold`
        : `${c.checks.filter((x) => !x.holds).length} of ${c.checks.length} identities do not hold`,
      '',
    );
  }
  return lines;
}
