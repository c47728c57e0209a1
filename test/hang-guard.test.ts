/**
 * The suite's hang guard (scripts/hang-guard.mjs, which `npm test` runs Vitest under) ends a run
 * that has stopped making progress, and only such a run: a command that hangs on purpose (a child
 * that sleeps with a grandchild that sleeps) is stopped, tree and all, with exit 124 and a listing
 * of what stalled; a command that keeps printing, or keeps computing silently, for longer than the
 * idle window runs to its end and keeps its own exit code. Windows are seconds here (minutes in
 * the suite); the busy child counts its own CPU, not the clock, so load only makes it slower.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from './support/cli.js';
import { ROOT, tempDir } from './support/paths.js';

const GUARD = join(ROOT, 'scripts', 'hang-guard.mjs');
const guard = (flags: string[], command: string[]) =>
  runCommand(process.execPath, [GUARD, '--sample-s', '0.25', ...flags, '--', ...command]);

/** Whether a process still runs (a zombie waiting for its parent to reap it has ended). */
const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

describe('the hang guard', () => {
  it('stops a run with no output and no CPU in its tree: exit 124, what stalled listed, nothing left running', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'grandchild.pid');
    // a child that starts a sleeping grandchild, says where it is once, then waits forever
    const r = await guard(
      ['--idle-s', '2'],
      ['bash', '-c', `sleep 1000 & echo $! > ${pidFile}; echo started; exec sleep 1001`],
    );
    expect(r.code, r.stderr).toBe(124);
    expect(r.stdout).toContain('started');
    expect(r.stderr).toMatch(/hang-guard: no progress for 2 s \(no output, [\d.]+ CPU-s in the process tree/);
    expect(r.stderr).toMatch(/sleep 1000/);
    expect(r.stderr).toMatch(/sleep 1001/);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(alive(grandchild)).toBe(false);
  });

  it('lets a run that keeps printing go on past the idle window, with its own exit code', async () => {
    const r = await guard(
      ['--idle-s', '2'],
      ['bash', '-c', 'for i in $(seq 20); do echo tick $i; sleep 0.2; done; exit 3'],
    );
    expect(r.stderr).not.toContain('hang-guard');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('tick 20');
  });

  it('lets a run that computes silently go on: CPU anywhere in the tree is progress', async () => {
    // a grandchild that prints nothing and spins until it has used 3 CPU-s of its own
    const spin = `const t0 = process.cpuUsage(); while ((process.cpuUsage(t0).user + process.cpuUsage(t0).system) < 3e6);`;
    const r = await guard(
      ['--idle-s', '2', '--min-cpu-s', '0.05'],
      ['bash', '-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(spin)}; echo done`],
    );
    expect(r.stderr).not.toContain('hang-guard');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('done');
  });

  it('refuses a call without a command (exit 2)', async () => {
    const r = await runCommand(process.execPath, [GUARD, '--idle-s', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no command after --');
  });
});
