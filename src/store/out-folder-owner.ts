/**
 * Who made a staging or set-aside folder beside an output folder (out-folder.ts), so that recovery
 * touches only folders this program made, and only when their maker is gone (issue 55, items 10
 * and 11). Each such folder holds OWNER_FILE: `{ pid, start, boot, token }` — the maker's pid, its
 * start time (Linux: /proc/PID/stat field 22, clock ticks since boot), the boot id, and the random
 * part of the folder's name. The maker is alive only when the boot is the same, the pid is alive
 * and that pid's start time is the recorded one: a pid reused by another process (a container where
 * node is always pid 1, or a wrap-around) does not keep a crashed run's folder from being restored.
 * A folder without the file, or whose token is not its name's, is not ours and is never touched.
 */
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from '../errors.js';

export const OWNER_FILE = '.kfbench-owner.json';

interface Owner {
  pid: number;
  start: string | null;
  boot: string | null;
  token: string;
}

function readOr(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** A process's start time (ticks since boot), or null where /proc cannot tell (or it is gone). */
function processStart(pid: number): string | null {
  const stat = readOr(`/proc/${pid}/stat`);
  if (!stat) return null;
  // the command name (field 2) may hold spaces and parentheses: count from the last ')'
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

const bootId = () => readOr('/proc/sys/kernel/random/boot_id');

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
}

/** Write the owner record of a folder named with `tag` (`PID.TOKEN`) into `dir`. */
export async function markOwned(dir: string, tag: string): Promise<void> {
  const [pid, token] = tag.split('.');
  const owner: Owner = {
    pid: Number(pid),
    start: processStart(Number(pid)),
    boot: bootId(),
    token: token ?? '',
  };
  await writeFile(join(dir, OWNER_FILE), `${JSON.stringify(owner)}\n`);
}

export const unmark = (dir: string) => rm(join(dir, OWNER_FILE), { force: true });

/**
 * Whether `dir` (named with `token`) was made by this program and its maker is gone: true only
 * then. A folder without a readable owner record is not ours.
 */
export function ownedAndOrphaned(dir: string, token: string): boolean {
  let o: Partial<Owner>;
  try {
    o = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Partial<Owner>;
  } catch {
    return false;
  }
  if (o.token !== token || !Number.isInteger(o.pid)) return false;
  const boot = bootId();
  if (o.boot && boot && o.boot !== boot) return true; // the machine restarted since
  if (!pidAlive(o.pid!)) return true;
  return o.start !== null && o.start !== undefined && processStart(o.pid!) !== o.start;
}
