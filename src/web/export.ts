/**
 * `serve --export DIR`: every page as a static file beside the files it points at (copied from the
 * roots), the derived frames and proxies, and our CSS/JS — the same relative URLs as the server, so
 * the folder opens from disk. Each file is written to a temp name and renamed.
 */
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { runPool } from '../concurrency/pool.js';
import { EnvironmentError, isKfbenchError } from '../errors.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { environmentError } from '../store/fs-errors.js';
import { writeOutputFolder } from '../store/out-folder.js';
import { assetPath, VIEWER_ASSETS } from './app.js';
import { renderPage } from './render.js';
import type { Site } from './site.js';

async function copyAtomic(from: string, to: string): Promise<void> {
  const tmp = `${to}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, tmp);
    await rename(tmp, to);
  } catch (e) {
    await rm(tmp, { force: true });
    throw environmentError(e, to);
  }
}

export interface ExportReport {
  pages: number;
  files: number;
  derived: number;
  skipped: string[];
}

export interface ExportOptions {
  /** Phases `pages` and `frames` (derived frames and proxies; one that cannot be made is a failure, and skipped). */
  onProgress?: OnProgress;
  /** ffmpeg processes at a time for the derived frames and proxies (default 4). */
  jobs?: number;
}

export async function exportSite(site: Site, out: string, o: ExportOptions = {}): Promise<ExportReport> {
  const pages = site.pages();
  const r: ExportReport = { pages: 0, files: 0, derived: 0, skipped: [] };
  const pageProgress = phaseReporter(o.onProgress, 'pages', 'pages');
  pageProgress.start(pages.length);
  for (const name of pages) {
    const html = await renderPage(site, name);
    if (html === null) continue;
    await writeFileAtomic(join(out, name), html);
    r.pages++;
    pageProgress.done(name);
  }
  pageProgress.finish();
  for (const a of VIEWER_ASSETS) await copyAtomic(assetPath(a), join(out, 'assets', a));
  for (const [url, f] of site.used) {
    const src = site.servable(f.root, f.rel);
    if (!src) {
      r.skipped.push(url);
      continue;
    }
    await copyAtomic(src, join(out, 'files', f.root, ...f.rel.split('/')));
    r.files++;
  }
  // frames and proxies: a few ffmpeg processes at a time
  const items = site.derivedItems();
  const mediaProgress = phaseReporter(o.onProgress, 'frames', 'files');
  mediaProgress.start(items.length);
  await runPool(
    items,
    async ([name, d]) => {
      try {
        const file = await site.media.file(d);
        if (!file) {
          r.skipped.push(`derived/${name} (not a regular file in the cache folder: not copied)`);
          mediaProgress.failed(name, 'not a regular file in the cache folder');
          return;
        }
        await copyAtomic(file, join(out, 'derived', name));
        r.derived++;
        mediaProgress.done(name);
      } catch (e) {
        // a frame or proxy its source cannot give is skipped and named; anything else is a bug
        // (a full disk or an unwritable folder is not the source's: the export stops)
        if (!isKfbenchError(e) || e instanceof EnvironmentError) throw e;
        r.skipped.push(`derived/${name} (${e.message})`);
        mediaProgress.failed(name, e.message);
      }
    },
    { concurrency: o.jobs ?? 4 },
  );
  mediaProgress.finish();
  r.skipped.sort();
  return r;
}

/** `serve --export DIR` as one call: the site exported into `out`, staged beside it and moved into place (a failure leaves it as it was). */
export function exportSiteFolder(site: Site, out: string, o: ExportOptions = {}): Promise<ExportReport> {
  return writeOutputFolder(resolve(out), (stage) => exportSite(site, stage, o));
}
