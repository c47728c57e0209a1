/**
 * A real single-node Slurm for the opt-in scheduler test: munged, slurmctld and slurmd from Debian's
 * `munge` and `slurm-wlm`, started in the foreground as children of the test, with their key,
 * sockets, state, spool and logs in a temp folder (no cgroups: proctrack/linuxproc, task/none; no
 * accounting). `stop()` ends the three daemons it started.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export interface Slurm {
  /** Environment for sbatch and friends (SLURM_CONF). */
  env: NodeJS.ProcessEnv;
  dir: string;
  /** The daemons' logs, for a failure message. */
  logs(): string;
  stop(): Promise<void>;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(cmd, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startSlurm(dir: string, opts: { cpus: number; port: number }): Promise<Slurm> {
  const host = hostname();
  const munge = join(dir, 'munge');
  for (const d of ['state', 'spool', 'munge']) mkdirSync(join(dir, d), { recursive: true });
  chmodSync(munge, 0o711);
  const key = join(munge, 'munge.key');
  writeFileSync(key, randomBytes(1024), { mode: 0o400 });
  const socket = join(munge, 'munge.sock');
  const conf = join(dir, 'slurm.conf');
  writeFileSync(
    conf,
    [
      'ClusterName=kfbench',
      `SlurmctldHost=${host}`,
      `SlurmctldPort=${opts.port}`,
      `SlurmdPort=${opts.port + 1}`,
      'AuthType=auth/munge',
      `AuthInfo=socket=${socket}`,
      'CredType=cred/munge',
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'JobAcctGatherType=jobacct_gather/none',
      'AccountingStorageType=accounting_storage/none',
      'SlurmUser=root',
      'SlurmdUser=root',
      `StateSaveLocation=${join(dir, 'state')}`,
      `SlurmdSpoolDir=${join(dir, 'spool')}`,
      `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
      `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
      `SlurmctldLogFile=${join(dir, 'slurmctld.log')}`,
      `SlurmdLogFile=${join(dir, 'slurmd.log')}`,
      'SchedulerType=sched/backfill',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'ReturnToService=2',
      'MpiDefault=none',
      `NodeName=${host} CPUs=${opts.cpus} RealMemory=1000 State=UNKNOWN`,
      `PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const children: ChildProcess[] = [];
  const daemon = (cmd: string, args: string[]) => {
    const c = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
    });
    children.push(c);
    return () => err;
  };
  const mungeErr = daemon('munged', [
    '-F',
    '-f',
    `--socket=${socket}`,
    `--key-file=${key}`,
    `--log-file=${join(munge, 'munged.log')}`,
    `--pid-file=${join(munge, 'munged.pid')}`,
    `--seed-file=${join(munge, 'munged.seed')}`,
  ]);
  const ctldErr = daemon('slurmctld', ['-D', '-i', '-f', conf]);
  const dErr = daemon('slurmd', ['-D', '-f', conf]);
  const slurm: Slurm = {
    env,
    dir,
    logs: () =>
      [
        mungeErr(),
        ctldErr(),
        dErr(),
        ...['slurmctld.log', 'slurmd.log'].map((f) => {
          try {
            return readFileSync(join(dir, f), 'utf8').split('\n').slice(-30).join('\n');
          } catch {
            return '';
          }
        }),
      ].join('\n'),
    async stop() {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGTERM');
            }),
        ),
      );
    },
  };
  // the node is ready when the controller answers and reports it idle (polled: the daemons start asynchronously)
  for (let i = 0; ; i++) {
    try {
      if (run('sinfo', ['-h', '-o', '%t'], env).trim() === 'idle') break;
    } catch {
      // controller not up yet
    }
    if (i > 120) {
      const logs = slurm.logs();
      await slurm.stop();
      throw new Error(`single-node Slurm did not come up within 60 s:\n${logs}`);
    }
    await delay(500);
  }
  return slurm;
}
