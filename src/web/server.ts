/** Start the viewer on a host and port (127.0.0.1 unless asked otherwise). */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { BackendError } from '../errors.js';
import { viewerApp } from './app.js';
import type { Site } from './site.js';

export interface RunningViewer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export const isLoopback = (host: string) => host === '127.0.0.1' || host === '::1' || host === 'localhost';

const bracket = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * The Host header values a viewer on `host`:`port` answers to: 127.0.0.1, localhost and [::1]
 * with that port, and the host it was started on (a rebinding page sends its own name: 403).
 */
function allowedHosts(host: string, port: number): Set<string> {
  return new Set(['127.0.0.1', 'localhost', '[::1]', bracket(host)].map((h) => `${h.toLowerCase()}:${port}`));
}

/**
 * Start the viewer. A port that is taken (or not ours to bind) is a BackendError naming it (exit 4);
 * with `tries` > 1 the next ports are tried first (`kfbench serve` without `--port`).
 */
export async function startViewer(
  site: Site,
  o: { host?: string; port?: number; tries?: number } = {},
): Promise<RunningViewer> {
  const host = o.host ?? '127.0.0.1';
  const port = o.port ?? 0;
  const tries = port === 0 ? 1 : Math.max(1, o.tries ?? 1);
  for (let k = 0; ; k++) {
    try {
      return await listen(site, host, port + k);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' && k + 1 < tries && port + k + 1 < 65536) continue;
      if (code === 'EADDRINUSE')
        throw new BackendError(
          `port ${port + k} on ${host} is in use${tries > 1 ? ` (and so were the ${tries - 1} before it)` : ''}: pass --port with a free one, or --port 0 for any free port`,
        );
      if (code === 'EACCES' || code === 'EADDRNOTAVAIL')
        throw new BackendError(
          `cannot listen on ${host} port ${port + k} (${code}): pass another --host or --port`,
        );
      throw e;
    }
  }
}

function listen(site: Site, host: string, port: number): Promise<RunningViewer> {
  let allowed = new Set<string>();
  const app = viewerApp(site, {
    hostAllowed: (h) => h !== undefined && allowed.has(h.trim().toLowerCase()),
  });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info: AddressInfo) => {
      allowed = allowedHosts(host, info.port);
      const h = bracket(host);
      resolve({
        url: `http://${h}:${info.port}/`,
        port: info.port,
        close: () =>
          new Promise<void>((res) => {
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => res());
          }),
      });
    });
    server.on('error', reject);
  });
}
