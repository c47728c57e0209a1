/**
 * Starts a viewer process (`serve` through the built CLI, or a printed `npx kfbench serve …` line
 * in a shell), waits for the URL it prints, fetches its home page and stops it — the whole
 * process group when `detached` (npx runs the server under a shell that passes no signal on).
 */
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { ROOT } from './paths.js';

export async function servesHome(
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; detached?: boolean } = {},
): Promise<{ page: string; stderr: string }> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...(opts.env ?? process.env), KFBENCH_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: !!opts.detached,
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /viewer at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) =>
      reject(new Error(`${[command, ...args].join(' ')} exited ${code}: ${stderr}`)),
    );
  });
  try {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return { page: await res.text(), stderr };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (opts.detached) process.kill(-child.pid!, 'SIGTERM');
    else child.kill('SIGTERM');
    await exited;
  }
}
