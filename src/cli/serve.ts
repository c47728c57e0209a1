/** `kfbench serve`: the read-only local viewer, or `--export DIR` for the same pages as static files. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import { exportSiteFolder } from '../web/export.js';
import { PROXY_MODES } from '../web/media.js';
import { isLoopback, startViewer } from '../web/server.js';
import { openSite } from '../web/site.js';
import { addFlags, type FlagValues, flagSpecs, type WithLayout } from './flags.js';
import { addLayoutFlag } from './layout-flag.js';
import { parseNumberFlag, printLines } from './output.js';
import { renderProgress } from './progress.js';

const SERVE_FLAG_SPECS = flagSpecs({
  data: { flags: '--data <dir>', description: 'HeroFrame dataset root (chains, rubrics, images)' },
  track: { flags: '--track <dir>', description: 'the rebuilt frame track (method frames)' },
  results: { flags: '--results <dir...>', description: '`hero evaluate` output folders' },
  cases: { flags: '--cases <file>', description: 'Compass cases.jsonl (keyframe images relative to it)' },
  videos: { flags: '--videos <dir>', description: 'Compass videos: <model>/<case_id>__<prompt_mode>.mp4' },
  compassResults: {
    flags: '--compass-results <dir...>',
    description: '`compass score` / `compass evaluate` output folders',
  },
  port: {
    flags: '--port <n>',
    description:
      'port (0 = any free port); without --port (or KFBENCH_PORT) the next free one after 8377 is taken',
    default: '8377',
    env: 'KFBENCH_PORT',
  },
  host: {
    flags: '--host <host>',
    description: 'address to bind; anything but loopback exposes your files to the network',
    default: '127.0.0.1',
  },
  export: {
    flags: '--export <dir>',
    description: 'write the pages as static files to this folder instead of serving',
  },
  proxy: {
    flags: '--proxy <mode>',
    description: `WebM proxies for videos: ${PROXY_MODES.join('|')} (auto = only when the browser cannot play the codec)`,
    default: 'auto',
  },
  cacheDir: {
    flags: '--cache-dir <dir>',
    description: 'where extracted frames and proxies are cached',
    default: '.cache/kfbench-viewer',
  },
});

type ServeFlags = WithLayout<FlagValues<typeof SERVE_FLAG_SPECS>>;

export function registerServe(serve: Command): void {
  addLayoutFlag(addFlags(serve, SERVE_FLAG_SPECS)).action(async (o: ServeFlags, cmd: Command) => {
    const proxy = PROXY_MODES.find((m) => m === o.proxy);
    if (proxy === undefined)
      throw new UsageError(
        `--proxy got "${o.proxy}"${didYouMean(o.proxy, PROXY_MODES)}; use ${PROXY_MODES.join(', ')}`,
      );
    const port = parseNumberFlag('--port', o.port, (n) => Number.isInteger(n) && n >= 0 && n < 65536);
    const site = await openSite(
      {
        data: o.data,
        layout: o.layout,
        track: o.track,
        results: o.results,
        cases: o.cases,
        videos: o.videos,
        compassResults: o.compassResults,
      },
      { cacheDir: o.cacheDir, proxy },
    );
    for (const p of site.data.problems)
      process.stderr.write(`kfbench serve: ${p.area === 'hero' ? 'HeroFrame' : 'Compass'}: ${p.message}\n`);
    if (o.export) {
      const out = resolve(o.export);
      const shown = renderProgress();
      const r = await exportSiteFolder(site, out, { onProgress: shown.onProgress }).finally(() =>
        shown.close(),
      );
      printLines([
        `wrote ${r.pages} pages, ${r.files} files and ${r.derived} frames/proxies to ${out}`,
        `open ${resolve(out, 'index.html')}`,
        ...r.skipped.map((s) => `skipped ${s}`),
      ]);
      return;
    }
    if (!isLoopback(o.host))
      process.stderr.write(
        `\nWARNING: kfbench serve is binding ${o.host}, not 127.0.0.1: anyone who can reach this machine can read the pages and the files they show (keyframes, stills, videos).\n\n`,
      );
    // a port the user chose is that port or an error; the default moves on to the next free one
    const chosen = cmd.getOptionValueSource('port') !== 'default';
    const v = await startViewer(site, { host: o.host, port, tries: chosen ? 1 : 20 });
    printLines([`kfbench viewer at ${v.url} (read-only; Ctrl-C to stop)`]);
    await new Promise<void>((done) => {
      const stop = () => {
        void v.close().then(done);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });
}
