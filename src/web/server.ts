/** Start the viewer on a host and port (127.0.0.1 unless asked otherwise). */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
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
export function allowedHosts(host: string, port: number): Set<string> {
  return new Set(['127.0.0.1', 'localhost', '[::1]', bracket(host)].map((h) => `${h.toLowerCase()}:${port}`));
}

export function startViewer(site: Site, o: { host?: string; port?: number } = {}): Promise<RunningViewer> {
  const host = o.host ?? '127.0.0.1';
  let allowed = new Set<string>();
  const app = viewerApp(site, {
    hostAllowed: (h) => h !== undefined && allowed.has(h.trim().toLowerCase()),
  });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: o.port ?? 0, hostname: host }, (info: AddressInfo) => {
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
