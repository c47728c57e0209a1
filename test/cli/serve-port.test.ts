/**
 * `kfbench serve` on a busy port: a port the user chose (`--port`, KFBENCH_PORT) is an error in one
 * line naming it (exit 4); without one, the viewer moves on to the next free port after 8377.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/paths.js';

/** Listen on 127.0.0.1:port (0 = any); resolves undefined when that port is already taken. */
function hold(port: number): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve(undefined) : reject(e)));
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
}
const close = (s: Server | undefined) => new Promise<void>((r) => (s ? s.close(() => r()) : r()));

let busy: Server | undefined;
let port = 0;
beforeAll(async () => {
  busy = await hold(0);
  port = (busy!.address() as { port: number }).port;
});
afterAll(async () => close(busy));

describe('kfbench serve on a busy port', () => {
  it.each([
    ['--port', (p: number) => ({ args: ['--port', String(p)], env: {} })],
    ['KFBENCH_PORT', (p: number) => ({ args: [], env: { KFBENCH_PORT: String(p) } })],
  ])('a chosen port (%s) that is taken: exit 4, one line naming it', async (_how, given) => {
    const g = given(port);
    const r = await runCli(['serve', ...g.args], { env: g.env });
    expect(r.code, r.stderr).toBe(4);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('kfbench:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use.*--port 0`));
    expect(r.stderr).not.toMatch(/internal error|EADDRINUSE/);
  });

  it('no --port: 8377 taken, the next free port is served', async () => {
    const held = await hold(8377); // undefined: someone else holds it, which serves the test as well
    try {
      const env = { ...process.env };
      delete env.KFBENCH_PORT;
      const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.js'), 'serve'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const exited = new Promise((r) => child.once('exit', r));
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /viewer at (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      child.kill('SIGTERM');
      await exited;
      const served = Number(new URL(url).port);
      expect(served).toBeGreaterThan(8377);
      expect(served).toBeLessThan(8377 + 20);
    } finally {
      await close(held);
    }
  });
});
