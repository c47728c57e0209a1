/// <reference lib="dom" />
/**
 * The README's screenshots of the viewer, made from the mini sets (never by hand):
 *   npm run build && npx tsx scripts/viewer-screenshots.ts [demo-dir] [out-dir]
 * Runs `kfbench demo` into demo-dir (default kfbench-demo; seconds when warm), judges the video
 * quality of two mini Compass models with the VLM emulator (`compass evaluate`, cached), starts the
 * viewer and saves docs/viewer-film.jpg and docs/viewer-case.jpg with Debian's Chromium.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { demoViewerInputs } from '../src/synthetic/demo-viewer.js';
import { startEmulator } from '../src/synthetic/emulator/server.js';
import { loadViewerData } from '../src/web/data.js';
import { MediaCache } from '../src/web/media.js';
import { startViewer } from '../src/web/server.js';
import { pageHref, Site } from '../src/web/site.js';
import { launchChromium } from '../test/support/browser.js';

const demo = resolve(process.argv[2] ?? 'kfbench-demo');
const out = resolve(process.argv[3] ?? 'docs');
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

const data = await loadViewerData(demoViewerInputs(demo, [compassEval]));
const site = new Site(data, new MediaCache(join(demo, 'viewer-cache'), 'auto'));
const viewer = await startViewer(site);
const browser = await launchChromium();
mkdirSync(out, { recursive: true });
const save = async (page: import('playwright-core').Page, name: string, height: number) => {
  const tmp = join(out, `.${name}.tmp.jpg`);
  await page.screenshot({ path: tmp, type: 'jpeg', quality: 82, clip: { x: 0, y: 0, width: 1280, height } });
  renameSync(tmp, join(out, name));
  console.log(join(out, name));
};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
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
  await save(page, 'viewer-film.jpg', 1500);
  await page.goto(viewer.url + pageHref(`case-${CASE}~minimal~${MODEL}.html`));
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => (document.getElementById('video') as HTMLVideoElement).readyState >= 2);
  await page.locator('#timeline .marker').nth(1).click();
  await page.waitForFunction(() => !(document.getElementById('video') as HTMLVideoElement).seeking);
  await page.waitForTimeout(300);
  await save(page, 'viewer-case.jpg', 1600);
} finally {
  await browser.close();
  await viewer.close();
}
