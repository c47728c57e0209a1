/**
 * CPU seconds spent so far by this process (every thread) and by the child processes it has
 * waited for (ffmpeg, ffprobe): the difference of two readings over a piece of work says how many
 * cores it kept busy (CPU seconds / wall seconds). Linux only (/proc/self/stat).
 */
import { readFileSync } from 'node:fs';

export interface CpuSeconds {
  self: number;
  children: number;
}

const TICK = Number(process.env.CLK_TCK || 100);

export function cpuSeconds(): CpuSeconds {
  const u = process.cpuUsage();
  // after the command name: fields 16 and 17 (cutime, cstime) are the 14th and 15th
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return { self: (u.user + u.system) / 1e6, children: (Number(f[13]) + Number(f[14])) / TICK };
}

/** CPU seconds (this process and its children) since `from`. */
export function cpuSince(from: CpuSeconds): number {
  const now = cpuSeconds();
  return now.self - from.self + (now.children - from.children);
}
