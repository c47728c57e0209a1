/**
 * `serve --export DIR`: every page as a static file beside the files it points at (copied from the
 * roots), the derived frames and proxies, and our CSS/JS — the same relative URLs as the server, so
 * the folder opens from disk. Each file is written to a temp name and renamed.
 */
import { copyFile, mkdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runPool } from '../concurrency/pool.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { assetPath, VIEWER_ASSETS } from './app.js';
import type { Site } from './site.js';

async function copyAtomic(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.tmp`;
  await copyFile(from, tmp);
  await rename(tmp, to);
}

export interface ExportReport {
  pages: number;
  files: number;
  derived: number;
  skipped: string[];
}

export async function exportSite(
  site: Site,
  out: string,
  onPage?: (done: number, total: number) => void,
  jobs = 4,
): Promise<ExportReport> {
  const pages = site.pages();
  const r: ExportReport = { pages: 0, files: 0, derived: 0, skipped: [] };
  for (const [i, name] of pages.entries()) {
    const html = await site.render(name);
    if (html === null) continue;
    await writeFileAtomic(join(out, name), html);
    r.pages++;
    onPage?.(i + 1, pages.length);
  }
  for (const a of VIEWER_ASSETS) await copyAtomic(assetPath(a), join(out, 'assets', a));
  for (const [url, f] of site.used) {
    const src = site.roots.resolve(f.root, f.rel);
    if (!src) {
      r.skipped.push(url);
      continue;
    }
    await copyAtomic(src, join(out, 'files', f.root, ...f.rel.split('/')));
    r.files++;
  }
  // frames and proxies: a few ffmpeg processes at a time
  const items = site.derivedItems();
  await runPool(
    items,
    async ([name, d]) => {
      try {
        await copyAtomic(await site.media.file(d), join(out, 'derived', name));
        r.derived++;
      } catch (e) {
        r.skipped.push(`derived/${name} (${(e as Error).message})`);
      }
    },
    { concurrency: jobs },
  );
  r.skipped.sort();
  return r;
}
