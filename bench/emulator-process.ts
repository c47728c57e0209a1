/** The VLM emulator in its own process (`kfbench dev vlm-emulator`), so a bench's CPU figures are the client's alone. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

export async function emulatorProcess(
  latencyMs: number,
  port: number,
): Promise<{ url: string; stop: () => void; cpuSeconds: () => number }> {
  const p = spawn(
    process.execPath,
    [
      join(ROOT, 'dist', 'cli', 'bin.js'),
      'dev',
      'vlm-emulator',
      '--port',
      String(port),
      '--latency-ms',
      String(latencyMs),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((r) => p.stdout!.once('data', () => r()));
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stop: () => p.kill('SIGTERM'),
    // user + system ticks of the emulator's process (/proc/PID/stat fields 14 and 15, 100 a second)
    cpuSeconds: () => {
      const f = readFileSync(`/proc/${p.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    },
  };
}
