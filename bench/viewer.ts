/**
 * bench/viewer — the viewer on the demo's mini sets: loading, rendering every page, serving the
 * videos over HTTP against reading the same bytes from disk, and extracting the matched frames
 * against bare ffmpeg doing the same seeks (`-f null`), in the same run.
 *   npm run build && npx tsx bench/viewer.ts [demo-dir]
 * The demo folder (default bench/out/demo) is made by `kfbench demo` if missing.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { ffmpegRun } from '../src/media/ffmpeg.js';
import { demoViewerInputs } from '../src/synthetic/demo-viewer.js';
import { loadViewerData } from '../src/web/data.js';
import { exportSite } from '../src/web/export.js';
import { MediaCache } from '../src/web/media.js';
import { renderPage } from '../src/web/render.js';
import { startViewer } from '../src/web/server.js';
import { Site } from '../src/web/site.js';

const ROOT = resolve(import.meta.dirname, '..');
const demo = resolve(process.argv[2] ?? join(ROOT, 'bench', 'out', 'demo'));
const rss = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);
const JOBS = 2;

if (!existsSync(join(demo, 'hero-eval', 'summary.json')))
  await new Promise<void>((done, fail) => {
    const c = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.js'), 'demo', '--out', demo], {
      stdio: 'inherit',
    });
    c.on('close', (code) => (code === 0 ? done() : fail(new Error(`demo exited ${code}`))));
  });

async function pool<T>(items: T[], f: (x: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: JOBS }, async () => {
      while (next < items.length) await f(items[next++]!);
    }),
  );
}

const cacheDir = join(ROOT, 'bench', 'out', 'viewer-cache');
rmSync(cacheDir, { recursive: true, force: true });
let t = performance.now();
const data = await loadViewerData(demoViewerInputs(demo));
const load = performance.now() - t;
const site = new Site(data, new MediaCache(cacheDir, 'auto'));
const pages = site.pages();
t = performance.now();
let bytes = 0;
for (const p of pages) bytes += (await renderPage(site, p))!.length;
const render = performance.now() - t;
t = performance.now();
for (const p of pages) await renderPage(site, p);
const rerender = performance.now() - t;
console.log(
  `load ${load.toFixed(0)} ms; ${pages.length} pages rendered in ${render.toFixed(0)} ms (${(render / pages.length).toFixed(1)} ms/page with one ffprobe per video, then ${(rerender / pages.length).toFixed(1)} ms/page; ${(bytes / pages.length / 1024).toFixed(0)} KiB/page); peak RSS ${rss()} MB`,
);

// videos over HTTP: the viewer (root check, ranges, headers, web stream) against a bare node:http
// server piping the same files with the same 1 MiB reads, fetched by the same client; a warm-up
// round first, then the measured one
const videos = [...site.used]
  .filter(([, f]) => f.root === 'videos')
  .map(([url, f]) => ({ url, file: site.roots.resolve(f.root, f.rel)! }));
const byPath = new Map(videos.map((v) => [`/${v.url}`, v.file]));
const bare = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'video/mp4' });
  createReadStream(byPath.get(req.url ?? '')!, { highWaterMark: 1 << 20 }).pipe(res);
});
await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
const viewer = await startViewer(site);
const fetchAll = async (base: string) => {
  let n = 0;
  for (let r = 0; r < 5; r++)
    for (const v of videos) n += (await (await fetch(base + v.url)).arrayBuffer()).byteLength;
  return n;
};
await fetchAll(bareUrl);
await fetchAll(viewer.url);
t = performance.now();
const bareBytes = await fetchAll(bareUrl);
const bareMs = performance.now() - t;
t = performance.now();
const http = await fetchAll(viewer.url);
const httpMs = performance.now() - t;
bare.close();
if (http !== bareBytes) throw new Error(`viewer served ${http} bytes, bare ${bareBytes}`);
console.log(
  `videos: ${videos.length} × 5 (${(http / 2 ** 20).toFixed(1)} MiB) — bare node:http ${bareMs.toFixed(0)} ms, viewer ${httpMs.toFixed(0)} ms → ratio ${(bareMs / httpMs).toFixed(2)} (${(http / 2 ** 20 / (httpMs / 1000)).toFixed(0)} MiB/s); peak RSS ${rss()} MB`,
);

// matched frames: kfbench (ffmpeg to JPEG + cache write) vs bare ffmpeg seeking to the same times
const frames = site.derivedItems().flatMap(([, d]) => (d.kind === 'frame' ? [d] : []));
t = performance.now();
await pool(frames, (d) =>
  ffmpegRun(['-ss', d.t.toFixed(6), '-i', d.video, '-frames:v', '1', '-f', 'null', '-'], d.video),
);
const bareFrames = performance.now() - t;
t = performance.now();
await pool(frames, (d) => site.media.file(d));
const made = performance.now() - t;
t = performance.now();
await pool(frames, (d) => site.media.file(d));
const warm = performance.now() - t;
console.log(
  `frames: ${frames.length} (${JOBS} at a time) — bare ffmpeg ${bareFrames.toFixed(0)} ms, kfbench ${made.toFixed(0)} ms → ratio ${(bareFrames / made).toFixed(2)}; from the cache ${warm.toFixed(0)} ms; peak RSS ${rss()} MB`,
);
await viewer.close();

const out = join(ROOT, 'bench', 'out', 'viewer-export');
rmSync(out, { recursive: true, force: true });
t = performance.now();
const r = await exportSite(site, out);
console.log(
  `export (frames cached): ${r.pages} pages, ${r.files} files, ${r.derived} derived in ${((performance.now() - t) / 1000).toFixed(1)} s; peak RSS ${rss()} MB`,
);
