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

export function startViewer(site: Site, o: { host?: string; port?: number } = {}): Promise<RunningViewer> {
  const host = o.host ?? '127.0.0.1';
  const app = viewerApp(site);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: o.port ?? 0, hostname: host }, (info: AddressInfo) => {
      const h = host.includes(':') ? `[${host}]` : host;
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
