#!/usr/bin/env node
/**
 * Runs a command (the test runner) and ends it only when it has stopped making progress: no byte
 * of output and less than a little CPU in its whole process tree (every descendant, ffmpeg and
 * browsers included) for a stretch of time. It never limits the total time: a loaded machine may
 * take as long as it needs, as long as something moves.
 *
 *   node scripts/hang-guard.mjs [--idle-s 600] [--min-cpu-s 5] [--sample-s 5] -- COMMAND [ARGS…]
 *
 * `--idle-s`: how long the tree may go without progress (default 600 s, or KFBENCH_HANG_IDLE_S).
 * `--min-cpu-s`: the CPU seconds the tree must use within that stretch to count as progress when
 * it prints nothing (default 5, or KFBENCH_HANG_MIN_CPU_S): an idle browser or a timer keeps
 * ticking, a stalled run does not add seconds. `--sample-s`: how often /proc is read (default 5).
 * On a stall it prints what stalled (each process, its state and CPU) to stderr, stops the whole
 * tree (SIGTERM, then SIGKILL) and exits 124; otherwise it exits as the command did. Linux only
 * (it reads /proc), like the rest of the suite.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

const STALL_EXIT = 124;

function parseArgs(argv) {
  const num = (env, dflt) => {
    const v = process.env[env];
    return v === undefined || v === '' ? dflt : Number(v);
  };
  const o = {
    idleS: num('KFBENCH_HANG_IDLE_S', 600),
    minCpuS: num('KFBENCH_HANG_MIN_CPU_S', 5),
    sampleS: num('KFBENCH_HANG_SAMPLE_S', 5),
    command: [],
  };
  const flags = { '--idle-s': 'idleS', '--min-cpu-s': 'minCpuS', '--sample-s': 'sampleS' };
  let i = 0;
  for (; i < argv.length && argv[i] !== '--'; i++) {
    const key = flags[argv[i]];
    if (!key) usage(`unknown option ${argv[i]}`);
    o[key] = Number(argv[++i]);
  }
  o.command = argv.slice(i + 1);
  if (o.command.length === 0) usage('no command after --');
  for (const k of ['idleS', 'minCpuS', 'sampleS'])
    if (!Number.isFinite(o[k]) || o[k] < 0 || (k !== 'minCpuS' && o[k] === 0))
      usage(`${k} must be a positive number`);
  return o;
}

function usage(msg) {
  process.stderr.write(`hang-guard: ${msg}\nusage: node scripts/hang-guard.mjs [--idle-s S] [--min-cpu-s S] [--sample-s S] -- COMMAND [ARGS…]\n`);
  process.exit(2);
}

/** Every process on the machine: pid → { ppid, state, ticks (user + system), name }. */
function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // gone since the listing
    }
    // pid (comm) state ppid … utime(14) stime(15): comm may hold spaces and parentheses
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    table.set(Number(name), { ppid: Number(f[1]), state: f[0], ticks: Number(f[11]) + Number(f[12]), comm });
  }
  return table;
}

/** The root and every descendant of it, from one process table. */
function tree(root, table) {
  const children = new Map();
  for (const [pid, p] of table) {
    const list = children.get(p.ppid) ?? [];
    list.push(pid);
    children.set(p.ppid, list);
  }
  const out = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop();
    if (!table.has(pid)) continue;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim().slice(0, 160);
  } catch {
    return '';
  }
}

const opts = parseArgs(process.argv.slice(2));
const TICKS_PER_S = 100; // Linux's USER_HZ, what /proc/PID/stat counts in
const child = spawn(opts.command[0], opts.command.slice(1), { stdio: ['inherit', 'pipe', 'pipe'] });
let outBytes = 0;
child.stdout.on('data', (b) => {
  outBytes += b.length;
  process.stdout.write(b);
});
child.stderr.on('data', (b) => {
  outBytes += b.length;
  process.stderr.write(b);
});
child.on('error', (e) => {
  process.stderr.write(`hang-guard: cannot start ${opts.command[0]}: ${e.message}\n`);
  process.exit(127);
});

/** CPU ticks seen so far per live pid: a process's growth is counted, an exited one's is kept. */
const seen = new Map();
let cpuSinceMark = 0;
let outAtMark = 0;
let markAt = Date.now();
let stalled = false;
/** The processes a stall stopped (SIGKILLed on the way out if any outlived SIGTERM). */
let stopping = [];

function sample() {
  const table = processTable();
  const pids = tree(child.pid, table);
  for (const pid of pids) {
    const t = table.get(pid).ticks;
    cpuSinceMark += Math.max(0, t - (seen.get(pid) ?? 0)) / TICKS_PER_S;
    seen.set(pid, t);
  }
  for (const pid of [...seen.keys()]) if (!table.has(pid)) seen.delete(pid);
  const now = Date.now();
  if (outBytes > outAtMark || cpuSinceMark >= opts.minCpuS) {
    outAtMark = outBytes;
    cpuSinceMark = 0;
    markAt = now;
    return;
  }
  if (now - markAt < opts.idleS * 1000) return;
  stalled = true;
  clearInterval(timer);
  const lines = pids.map((pid) => {
    const p = table.get(pid);
    return `  ${pid} ${p.state} ${(p.ticks / TICKS_PER_S).toFixed(1)} CPU-s ${cmdline(pid) || p.comm}`;
  });
  process.stderr.write(
    `hang-guard: no progress for ${opts.idleS} s (no output, ${cpuSinceMark.toFixed(2)} CPU-s in the process tree, under ${opts.minCpuS}): stopping ${pids.length} process(es)\n${lines.join('\n')}\n`,
  );
  stop(pids);
}

/** SIGTERM to every process of the tree, SIGKILL to what is left after 10 s, then exit 124. */
function stop(pids) {
  stopping = pids;
  for (const pid of pids) signal(pid, 'SIGTERM');
  setTimeout(() => {
    for (const pid of tree(child.pid, processTable())) signal(pid, 'SIGKILL');
    killStopping();
    process.exit(STALL_EXIT);
  }, 10_000).unref();
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function killStopping() {
  for (const pid of stopping) signal(pid, 'SIGKILL');
}

const timer = setInterval(sample, opts.sampleS * 1000);
// a signal to the guard goes to the command, which ends as it would have without the guard
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('close', (code, sig) => {
  clearInterval(timer);
  if (stalled) {
    killStopping();
    process.exit(STALL_EXIT);
  }
  process.exit(sig ? 128 + (constants.signals[sig] ?? 0) : (code ?? 1));
});
