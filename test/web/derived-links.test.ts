/**
 * The viewer serves regular files only (issue 46 item 9): a symlink planted in `--cache-dir` at
 * the name of a derived frame (pointing at a file outside every root), a FIFO or a folder there,
 * is never served nor followed — a real request to the real viewer gets 404 — and `serve --export`
 * skips it, naming it. Before, the link's target was served (200, its bytes).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViewerData } from '../../src/web/data.js';
import { exportSite } from '../../src/web/export.js';
import { MediaCache } from '../../src/web/media.js';
import { renderPage } from '../../src/web/render.js';
import { type RunningViewer, startViewer } from '../../src/web/server.js';
import { Site } from '../../src/web/site.js';
import { tempDir } from '../support/paths.js';
import { buildViewerFixture, type ViewerFixture } from '../support/viewer.js';

let fx: ViewerFixture;
let site: Site;
let viewer: RunningViewer;
let cacheDir: string;
const secret = join(tempDir(), 'secret.txt');
writeFileSync(secret, 'the secret outside every root\n');

beforeAll(async () => {
  fx = await buildViewerFixture();
  cacheDir = join(fx.dir, 'cache-links');
  site = new Site(
    await loadViewerData({
      cases: fx.compass.cases,
      videos: fx.compass.videos,
      compassResults: [fx.compassResults],
    }),
    new MediaCache(cacheDir, 'auto'),
  );
  for (const name of site.pages()) await renderPage(site, name); // the pages name their derived frames
  viewer = await startViewer(site);
});
afterAll(async () => viewer?.close());

describe('derived media in --cache-dir', () => {
  it('a made frame is served; a symlink, a FIFO or a folder at a frame name is 404, never followed', async () => {
    const names = site.derivedItems().map(([n]) => n);
    expect(names.length).toBeGreaterThanOrEqual(4);
    const [made, link, fifo, folder] = names as [string, string, string, string];
    const ok = await fetch(new URL(`derived/${made}`, viewer.url));
    expect(ok.status).toBe(200);
    expect((await ok.arrayBuffer()).byteLength).toBeGreaterThan(0);
    mkdirSync(cacheDir, { recursive: true });
    symlinkSync(secret, join(cacheDir, link));
    execFileSync('mkfifo', [join(cacheDir, fifo)]);
    mkdirSync(join(cacheDir, folder));
    for (const n of [link, fifo, folder]) {
      const r = await fetch(new URL(`derived/${n}`, viewer.url));
      const body = await r.text();
      expect(r.status, n).toBe(404);
      expect(body).not.toContain('secret');
    }
    // the planted entries are left as they are (the viewer neither follows nor replaces them)
    expect(readdirSync(cacheDir)).toEqual(expect.arrayContaining([link, fifo, folder]));
  });

  it('serve --export skips a planted link, naming it, and copies no byte of its target', async () => {
    const [, link] = site.derivedItems().map(([n]) => n) as [string, string];
    const out = tempDir();
    const r = await exportSite(site, out);
    expect(r.skipped.join('\n')).toContain(`derived/${link} (not a regular file in the cache folder`);
    expect(readdirSync(join(out, 'derived'))).not.toContain(link);
  });
});
