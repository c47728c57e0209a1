/** The viewer answers only to its own address: any other Host header (DNS rebinding) is a 403. Checked with curl. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViewerData } from '../../src/web/data.js';
import { MediaCache } from '../../src/web/media.js';
import { type RunningViewer, startViewer } from '../../src/web/server.js';
import { Site } from '../../src/web/site.js';
import { tempDir } from '../support/paths.js';

const run = promisify(execFile);
let viewer: RunningViewer;
beforeAll(async () => {
  const site = new Site(await loadViewerData({}), new MediaCache(join(tempDir(), 'cache'), 'never'));
  viewer = await startViewer(site);
});
afterAll(async () => viewer?.close());

/** curl's status code for the index page, sent with `host` as the Host header (or curl's own). */
async function status(host?: string): Promise<number> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...(host ? ['-H', `Host: ${host}`] : [])];
  const r = await run('curl', [...args, `http://127.0.0.1:${viewer.port}/index.html`]);
  return Number(r.stdout);
}

describe('viewer Host check', () => {
  it('accepts 127.0.0.1, localhost and [::1] with its port', async () => {
    const p = viewer.port;
    expect(await status()).toBe(200);
    for (const h of [`127.0.0.1:${p}`, `localhost:${p}`, `LOCALHOST:${p}`, `[::1]:${p}`])
      expect(await status(h), h).toBe(200);
  });

  it('refuses any other host, another port, or a host without its port: 403', async () => {
    const p = viewer.port;
    for (const h of [
      `evil.example:${p}`,
      'evil.example',
      `127.0.0.1:${p + 1}`,
      'localhost',
      `127.0.0.1.evil.example:${p}`,
    ])
      expect(await status(h), h).toBe(403);
    const body = await run('curl', [
      '-s',
      '-H',
      `Host: attacker.test:${p}`,
      `http://127.0.0.1:${p}/files/images/x.jpg`,
    ]);
    expect(body.stdout).toMatch(/^forbidden/);
  });
});
