/// <reference lib="dom" />
/**
 * The README's screenshots of the viewer, made from the mini sets (never by hand):
 *   npm run build && npx tsx scripts/viewer-screenshots.ts [demo-dir] [out-dir]
 * Runs `kfbench demo` into demo-dir (default kfbench-demo; seconds when warm), judges the video
 * quality of two mini Compass models with the VLM emulator (`compass evaluate`, cached), starts the
 * viewer and saves docs/img/viewer-home.png, viewer-film.png and viewer-case.png (1280 px wide) with
 * Debian's Chromium.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { demoViewerInputs } from '../src/synthetic/demo-viewer.js';
import { startEmulator } from '../src/synthetic/emulator/server.js';
import { loadViewerData } from '../src/web/data.js';
import { MediaCache } from '../src/web/media.js';
import { pageHref } from '../src/web/page-names.js';
import { startViewer } from '../src/web/server.js';
import { Site } from '../src/web/site.js';
import { launchChromium } from '../test/support/browser.js';

const demo = resolve(process.argv[2] ?? 'kfbench-demo');
const out = resolve(process.argv[3] ?? join('docs', 'img'));
const CASE = 'ms-06';
const MODEL = 'missing';

/** Run the built CLI (asynchronously: the emulator answers from this process). */
function kfbench(args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve('dist/cli/bin.js'), ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`kfbench ${args.slice(0, 2).join(' ')} exited ${code}`)),
    );
  });
}

await kfbench(['demo', '--out', demo]);
const compassEval = join(demo, 'compass-eval');
if (!existsSync(join(compassEval, 'leaderboard.json'))) {
  const emu = await startEmulator();
  try {
    await kfbench([
      ...['compass', 'evaluate', '--cases', join(demo, 'mini-compass', 'cases.jsonl')],
      ...[
        '--videos',
        join(demo, 'mini-compass', 'videos'),
        '--model',
        'faithful',
        MODEL,
        '--modes',
        'minimal',
      ],
      ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--cache', join(demo, 'emulator-cache.sqlite')],
      ...['--out', compassEval],
    ]);
  } finally {
    await emu.close();
  }
}

/** A PNG of at most 128 colours (ffmpeg's palette; text stays sharp), so each picture stays < 300 KB. */
function small(from: string, to: string): void {
  const r = spawnSync('ffmpeg', [
    ...['-v', 'error', '-y', '-i', from],
    ...['-vf', 'split[a][b];[a]palettegen=max_colors=128[p];[b][p]paletteuse=dither=none', to],
  ]);
  if (r.status !== 0) throw new Error(`ffmpeg could not reduce ${from}: ${r.stderr}`);
  unlinkSync(from);
}

const data = await loadViewerData(demoViewerInputs(demo, [compassEval]));
const site = new Site(data, new MediaCache(join(demo, 'viewer-cache'), 'auto'));
const viewer = await startViewer(site);
const browser = await launchChromium();
mkdirSync(out, { recursive: true });
const save = async (page: import('playwright-core').Page, name: string, height: number) => {
  const tmp = join(out, `.${name}.tmp.png`);
  await page.screenshot({ path: tmp, type: 'png', clip: { x: 0, y: 0, width: 1280, height } });
  small(tmp, join(out, name));
  console.log(join(out, name));
};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  await page.goto(viewer.url + pageHref('index.html'));
  await page.waitForLoadState('networkidle');
  // the Compass board: its definitions, charts and tables
  await page
    .locator('#compass')
    .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY));
  await page.screenshot({ path: join(out, '.viewer-home.tmp.png'), type: 'png' });
  small(join(out, '.viewer-home.tmp.png'), join(out, 'viewer-home.png'));
  console.log(join(out, 'viewer-home.png'));
  const film = [...data.hero!.chains.keys()].sort()[0]!;
  await page.goto(viewer.url + pageHref(`film-${film}.html`));
  await page.waitForLoadState('networkidle');
  // open the verdicts of the first method's top frame in the first chain
  const panel = await page.locator('details.method[open] .verdict-panel').first().getAttribute('id');
  await page.goto(`${viewer.url + pageHref(`film-${film}.html`)}#${panel}`);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page
    .locator('details.method[open] .verdict-panel')
    .first()
    .evaluate((el) => {
      // put the open method's placements right under the chains for one picture
      const chains = document.getElementById('chains')!;
      const method = el.closest('details')!;
      chains.after(method);
      for (const c of [...chains.querySelectorAll('.chain')].slice(2)) c.remove();
    });
  await save(page, 'viewer-film.png', 1500);
  await page.goto(viewer.url + pageHref(`case-${CASE}~minimal~${MODEL}.html`));
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => (document.getElementById('video') as HTMLVideoElement).readyState >= 2);
  await page.locator('#timeline .marker').nth(1).click();
  await page.waitForFunction(() => !(document.getElementById('video') as HTMLVideoElement).seeking);
  await page.waitForTimeout(300);
  await save(page, 'viewer-case.png', 1600);
} finally {
  await browser.close();
  await viewer.close();
}
