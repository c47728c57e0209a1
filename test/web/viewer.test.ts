/// <reference lib="dom" />
/**
 * The viewer in a real browser (Debian's Chromium through playwright-core) against the server on
 * the mini sets: pages load without console errors, the leaderboards show every method and model,
 * a film page shows its chains in order with the verdicts one click away, a case page seeks its
 * video, HTML in data renders as text, nothing outside the roots is served, bad input is reported
 * on the page. Screenshots of each page go to test-artifacts/viewer/.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilmChains } from '../../src/hero/dataset/schemas.js';
import { loadViewerData } from '../../src/web/data.js';
import { MediaCache, type ProxyMode } from '../../src/web/media.js';
import { pageHref } from '../../src/web/page-names.js';
import { type RunningViewer, startViewer } from '../../src/web/server.js';
import { Site } from '../../src/web/site.js';
import type { ViewerInputs } from '../../src/web/view-types.js';
import { launchChromium, openPage } from '../support/browser.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/paths.js';
import {
  buildViewerFixture,
  COMPASS_MODELS,
  HERO_METHODS,
  type ViewerFixture,
  XSS_PRUNED,
  XSS_RULE,
  XSS_TITLE,
} from '../support/viewer.js';

const ARTIFACTS = join(ROOT, 'test-artifacts', 'viewer');
let fx: ViewerFixture;
let browser: Browser;
let viewer: RunningViewer;
let site: Site;
const CASE = 'ot-03';

const inputs = (f: ViewerFixture): ViewerInputs => ({
  data: f.data,
  track: f.mini.track,
  results: [f.results],
  cases: f.compass.cases,
  videos: f.compass.videos,
  compassResults: [f.compassResults],
});

async function serve(
  i: ViewerInputs,
  proxy: ProxyMode = 'auto',
): Promise<{ site: Site; viewer: RunningViewer }> {
  const s = new Site(await loadViewerData(i), new MediaCache(join(fx.dir, `cache-${proxy}`), proxy));
  return { site: s, viewer: await startViewer(s) };
}

/** Open a page, collect every console error, page error and failed request; save a screenshot. */
async function visit(base: string, name: string, shot: string): Promise<{ page: Page; errors: string[] }> {
  const page = await openPage(browser, { width: 1400, height: 900 });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.goto(base + pageHref(name));
  await page.waitForLoadState('networkidle');
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${shot}.png`), fullPage: true });
  return { page, errors };
}

/** A raw GET with the path exactly as written (no client-side normalisation of ".."). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A copy of a results folder with the ids in one file rewritten (results "from another dataset"). */
function copyRewritten(from: string, name: string, file: string, ids: RegExp, to: string): string {
  const dir = join(fx.dir, name);
  cpSync(from, dir, { recursive: true });
  writeFileSync(join(dir, file), readFileSync(join(from, file), 'utf8').replace(ids, to));
  return dir;
}

const caseName = (model: string, mode = 'minimal', id = CASE) => `case-${id}~${mode}~${model}.html`;

beforeAll(async () => {
  fx = await buildViewerFixture();
  ({ site, viewer } = await serve(inputs(fx)));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
});

describe('kfbench viewer in Chromium', () => {
  it('the leaderboard, both film pages and case pages load with no console error', async () => {
    const names = site
      .pages()
      .filter((n) => n === 'index.html' || n.startsWith('film-') || n.startsWith(`case-${CASE}`));
    expect(names.length).toBeGreaterThanOrEqual(1 + 2 + 1 + COMPASS_MODELS.length);
    for (const name of names) {
      const { page, errors } = await visit(
        viewer.url,
        name,
        name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/\.html$/, ''),
      );
      expect(errors, name).toEqual([]);
      expect(await page.locator('main h1').count(), name).toBe(1);
      await page.close();
    }
  });

  it('the leaderboard shows every method, official row and model, with whiskers', async () => {
    const { page, errors } = await visit(viewer.url, 'index.html', 'leaderboard');
    expect(errors).toEqual([]);
    const summary = JSON.parse(readFileSync(join(fx.results, 'summary.json'), 'utf8'));
    const methods: string[] = summary.methods.map((m: { method: string }) => m.method);
    expect(methods.sort()).toEqual([...HERO_METHODS, 'stills'].sort());
    const rows = await page.$$eval('table.hero-scores tbody tr', (trs) =>
      trs.map((t) => t.getAttribute('data-method')),
    );
    for (const m of methods) expect(rows).toContain(m);
    expect(rows.length).toBe(methods.length + summary.official.length);
    const bars = await page.$$eval('svg.chart g.bar', (gs) => gs.map((g) => g.getAttribute('data-label')));
    for (const m of methods) expect(bars).toContain(m);
    expect(await page.locator('svg.chart g.bar line.whisker').count()).toBeGreaterThan(0);
    // every model in each quality table (audio is judged by default: the joint board and the
    // video-only one, issue 54)
    const tables = await page.$$eval('table.quality-scores', (ts) =>
      ts.map((t) =>
        Array.from(t.querySelectorAll(':scope > tbody > tr')).map((r) => r.getAttribute('data-model')),
      ),
    );
    expect(tables.length).toBeGreaterThanOrEqual(1);
    for (const models of tables) expect(models.sort()).toEqual([...COMPASS_MODELS].sort());
    await page.close();
  });

  it('a film page shows its chains in order, pair status on hover, verdicts one click away', async () => {
    const { page, errors } = await visit(viewer.url, `film-${fx.film}.html`, 'film');
    expect(errors).toEqual([]);
    // the mini chains are in the release's shape: read them as kfbench does (ids from group_id, order by gamma)
    const film = FilmChains.parse(
      JSON.parse(
        readFileSync(join(fx.data, 'data', 'chains.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .find((l) => l.includes(`"movie_id":"${fx.film}"`))!,
      ),
    );
    // what the release says of the film and its chains is on the page
    expect(await page.locator('#release dd[data-field="method_tag"]').textContent()).toBe(
      String(film.method_tag),
    );
    expect(await page.locator('#release dd[data-field="summary.n_unique_images"]').textContent()).toBe(
      String((film.summary as { n_unique_images: number }).n_unique_images),
    );
    expect(await page.locator('#release dd[data-field="removed_anchors"]').textContent()).toBe('none');
    expect(
      await page.$$eval('#chains .chain h3 [data-field="freeze_reason"]', (x) => x.map((e) => e.textContent)),
    ).toEqual(film.chains.map(() => 'freeze_reason most_confident_draw'));
    expect(await page.locator('#chains .chain h3 [data-field="coverage"]').count()).toBe(film.chains.length);
    const shown = await page.$$eval('#chains .chain', (cs) =>
      cs.map((c) => ({
        id: c.getAttribute('data-chain'),
        order: [...c.querySelectorAll('li.still')].map((l) => l.getAttribute('data-image')),
        pairs: [...c.querySelectorAll('li.pair')].map((l) => l.getAttribute('title')),
      })),
    );
    expect(shown.map((c) => c.id)).toEqual(film.chains.map((c) => c.chain_id));
    for (const [k, c] of film.chains.entries()) {
      expect(shown[k]!.order).toEqual(c.order);
      expect(shown[k]!.pairs).toHaveLength(c.order.length - 1);
      for (const t of shown[k]!.pairs) expect(t).toMatch(/: (confident|unresolved), |no comparison recorded/);
    }
    // every placement of the first method sits where insertions.jsonl says
    const ins = readFileSync(join(fx.results, 'insertions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => r.movie_id === fx.film && r.method === HERO_METHODS[0]);
    const first = page.locator(`details.method[data-method="${HERO_METHODS[0]}"]`);
    await expect.poll(() => first.getAttribute('open')).not.toBeNull();
    for (const r of ins) {
      const slots = await first
        .locator(`.placement[data-chain="${r.chain_id}"] ol.row > li`)
        .evaluateAll((ls) =>
          ls.map((l) => (l.classList.contains('ins') ? `r${l.getAttribute('data-rank')}` : 's')),
        );
      const idx = slots.indexOf(`r${r.rank}`);
      expect(slots.slice(0, idx).filter((s) => s === 's')).toHaveLength(r.chain_length - r.position);
    }
    const panel = first.locator('.verdict-panel').first();
    expect(await panel.isVisible()).toBe(false);
    await first.locator('li.ins a').first().click();
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await panel.locator('tbody tr').count()).toBe(film.chains[0]!.order.length);
    expect(await panel.innerText()).toMatch(/frame shown first: picked [AB]/);
    // the rubric: rounds, rules, pruned
    expect(await page.locator('#rubric h3').allInnerTexts()).toEqual([
      'round 1',
      'round 2',
      'Pruned by Phase B',
    ]);
    await page.close();
  });

  it('HTML in a movie title and in rubric sentences renders as text', async () => {
    for (const name of ['index.html', `film-${fx.film}.html`]) {
      const { page, errors } = await visit(viewer.url, name, `escape-${name.replace('.html', '')}`);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.locator('main script').count()).toBe(0);
      const text = await page.locator('main').innerText();
      expect(text).toContain(XSS_TITLE);
      if (name !== 'index.html') {
        expect(text).toContain(XSS_RULE);
        expect(text).toContain(XSS_PRUNED);
        expect(await page.locator('h1.film-title').innerText()).toContain('<img src=x onerror=');
      }
      await page.close();
    }
  });

  it('a case page: keyframe strip, shots, matched frames, and times that seek the video', async () => {
    const { page, errors } = await visit(viewer.url, caseName('faithful'), 'case');
    expect(errors).toEqual([]);
    await page.waitForFunction(() => (document.getElementById('video') as HTMLVideoElement).readyState >= 1);
    expect(await page.locator('.kf-strip li.kf').count()).toBe(3);
    expect(await page.locator('#timeline .shot').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('table.kf-table tbody tr[data-kf]').count()).toBe(3);
    // the matched frames (extracted by ffmpeg on request) decoded in the browser
    const widths = await page.$$eval('table.kf-table img', (is) =>
      is.map((i) => (i as HTMLImageElement).naturalWidth),
    );
    expect(widths.every((w) => w > 0)).toBe(true);
    const evidence = page.locator('.checklist button.seek');
    expect(await evidence.count()).toBeGreaterThan(0);
    for (const b of [
      evidence.nth(0),
      evidence.nth((await evidence.count()) - 1),
      page.locator('#timeline .marker').last(),
    ]) {
      const t = Number(await b.getAttribute('data-seek'));
      await b.click();
      await page.waitForFunction(
        (want) => {
          const v = document.getElementById('video') as HTMLVideoElement;
          return !v.seeking && Math.abs(v.currentTime - want) < 0.05;
        },
        t,
        { timeout: 0 }, // no limit that load can exceed; scripts/hang-guard.mjs ends a real hang
      );
      expect(await page.locator('#seek-status').innerText()).toBe(`at ${t.toFixed(2)} s`);
    }
    // the missing model's page marks the keyframe it never shows
    const missing = await visit(viewer.url, caseName('missing'), 'case-missing');
    expect(missing.errors).toEqual([]);
    expect(await missing.page.locator('.kf-strip li.kf.missing').count()).toBeGreaterThan(0);
    await missing.page.close();
    await page.close();
  });

  it('serves nothing outside its roots: "..", encoded "..", absolute paths, symlinks out → 404', async () => {
    const film = fx.film;
    const img = readFileSync(join(fx.data, 'data', 'chains.jsonl'), 'utf8').match(
      /"image_id":"([^"]+)"/,
    )![1]!;
    expect(await rawGet(viewer.url, `/files/images/${film}/${img}.jpg`)).toBe(200);
    expect(await rawGet(viewer.url, `/files/images/${film}/${img}.jpg`, { Range: 'bytes=0-99' })).toBe(206);
    const { symlinkSync } = await import('node:fs');
    symlinkSync('/etc/hostname', join(fx.data, 'images', film, 'escape.jpg'));
    for (const p of [
      '/../package.json',
      '/../../etc/passwd',
      '/files/images/../../../../etc/passwd',
      `/files/images/${film}/../../data/movies.jsonl`,
      '/files/images/%2e%2e/%2e%2e/data/movies.jsonl',
      '/files/images/..%2f..%2fdata%2fmovies.jsonl',
      '/files/images/%2fetc%2fpasswd',
      `/files/images/${film}/escape.jpg`,
      '/files/track/../heroframe/data/movies.jsonl',
      '/files/nope/x.jpg',
      '/files/videos/faithful/..%2f..%2fcases.jsonl',
      '/derived/0123456789abcdef01234567.jpg',
      '/assets/../package.json',
      '/package.json',
      '/film-..%2f..%2fetc.html',
    ])
      expect(await rawGet(viewer.url, p), p).toBe(404);
    const post = await fetch(viewer.url, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('bad input: a missing results folder and one from another dataset are reported on the page', async () => {
    const other = copyRewritten(
      fx.results,
      'other-hero',
      'insertions.jsonl',
      /"movie_id":"[^"]+"/g,
      '"movie_id":"7777_Another_Film"',
    );
    const otherCompass = copyRewritten(
      fx.compassResults,
      'other-compass',
      'response.jsonl',
      /"case_id":"[^"]+"/g,
      '"case_id":"zz-99"',
    );
    const bad = await serve({
      ...inputs(fx),
      results: [join(fx.dir, 'no-such-results'), other],
      compassResults: [otherCompass, join(fx.dir, 'no-such-compass')],
    });
    try {
      const { page, errors } = await visit(bad.viewer.url, 'index.html', 'bad-input');
      expect(errors).toEqual([]);
      const problems = await page.locator('#problems').innerText();
      expect(problems).toContain('no-such-results: missing');
      expect(problems).toMatch(
        /other-hero is from another dataset: none of its 1 films \(7777_Another_Film\)/,
      );
      expect(problems).toMatch(/other-compass is from another case set/);
      expect(problems).toContain('no-such-compass: missing');
      await page.close();
      const film = await visit(bad.viewer.url, `film-${fx.film}.html`, 'bad-input-film');
      expect(film.errors).toEqual([]);
      expect(await film.page.locator('#placements').innerText()).toContain('no placements for this film');
      await film.page.close();
    } finally {
      await bad.viewer.close();
    }
  });

  it('a WebM proxy (made by ffmpeg, cached) plays and seeks when a proxy is needed', async () => {
    const px = await serve(inputs(fx), 'always');
    try {
      const { page, errors } = await visit(px.viewer.url, caseName('faithful'), 'case-proxy');
      expect(errors).toEqual([]);
      expect(await page.locator('#video').getAttribute('src')).toMatch(/^derived\/[0-9a-f]{24}\.webm$/);
      await page.waitForFunction(
        () => (document.getElementById('video') as HTMLVideoElement).readyState >= 1,
      );
      const d = await page.evaluate(() => (document.getElementById('video') as HTMLVideoElement).duration);
      expect(d).toBeCloseTo(4.5, 0);
      const b = page.locator('table.kf-table button.seek').last();
      const t = Number(await b.getAttribute('data-seek'));
      await b.click();
      await page.waitForFunction(
        (want) => Math.abs((document.getElementById('video') as HTMLVideoElement).currentTime - want) < 0.05,
        t,
      );
      await page.close();
    } finally {
      await px.viewer.close();
    }
  });

  it('`serve --export DIR` writes pages that open from disk with their images and video', async () => {
    const out = join(fx.dir, 'export');
    const r = await runCli([
      ...['serve', '--data', fx.data, '--track', fx.mini.track, '--results', fx.results],
      ...['--cases', fx.compass.cases, '--videos', fx.compass.videos, '--compass-results', fx.compassResults],
      ...['--export', out, '--cache-dir', join(fx.dir, 'cache-export')],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote \d+ pages, \d+ files and \d+ frames\/proxies to /);
    for (const name of ['index.html', `film-${fx.film}.html`, caseName('faithful')]) {
      const { page, errors } = await visit(
        `file://${out}/`,
        name,
        `export-${name.replace(/[^A-Za-z0-9-]/g, '_')}`,
      );
      expect(errors, name).toEqual([]);
      // lazy images below the fold: ask for all of them now, then check each decoded
      const broken = await page.$$eval('img', async (is) => {
        const imgs = is as HTMLImageElement[];
        await Promise.all(
          imgs.map((i) => {
            i.loading = 'eager';
            if (i.complete) return Promise.resolve();
            return new Promise<void>((r) => {
              i.addEventListener('load', () => r(), { once: true });
              i.addEventListener('error', () => r(), { once: true });
            });
          }),
        );
        return imgs.filter((i) => i.naturalWidth === 0).map((i) => i.getAttribute('src'));
      });
      expect(broken, name).toEqual([]);
      if (name.startsWith('case-'))
        await page.waitForFunction(
          () => (document.getElementById('video') as HTMLVideoElement).readyState >= 1,
        );
      await page.close();
    }
  });

  it('`kfbench serve` binds 127.0.0.1 by default and warns loudly on another host', async () => {
    const run = (host: string[]) =>
      new Promise<{ url: string; stderr: string; code: number | null }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            join(ROOT, 'dist', 'cli', 'bin.js'),
            'serve',
            '--data',
            fx.data,
            '--track',
            fx.mini.track,
            '--port',
            '0',
            ...host,
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        let err = '';
        let url = '';
        child.stderr.on('data', (c: Buffer) => {
          err += c.toString();
        });
        child.stdout.on('data', async (c: Buffer) => {
          out += c.toString();
          const m = /viewer at (http:\/\/\S+)/.exec(out);
          if (m && !url) {
            url = m[1]!;
            const res = await fetch(url.replace('0.0.0.0', '127.0.0.1'));
            expect(res.status).toBe(200);
            child.kill('SIGTERM');
          }
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ url, stderr: err, code }));
      });
    const local = await run([]);
    expect(local.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(local.stderr).not.toContain('WARNING');
    expect(local.code).toBe(0);
    const open = await run(['--host', '0.0.0.0']);
    expect(open.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
    expect(open.stderr).toMatch(/WARNING: kfbench serve is binding 0\.0\.0\.0, not 127\.0\.0\.1/);
    expect(open.code).toBe(0);
  });
});
