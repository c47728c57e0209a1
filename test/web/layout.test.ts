/// <reference lib="dom" />
/**
 * What a user meets in the viewer (Debian's Chromium through playwright-core): the Compass board has
 * the command line's audio-video columns (the joint AV Overall and A/V coordination, "not measured"
 * where the judge took no audio); a case page of a 12-model set fits a 1280-px window (the model
 * picker wraps, no caption is cut, nothing sticks out of the window or of its container); the
 * HeroFrame board says what S, S@k, top-1 and beat-the-still are, one line each.
 */
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { loadViewerData } from '../../src/web/data.js';
import { MediaCache } from '../../src/web/media.js';
import { pageHref } from '../../src/web/page-names.js';
import { HERO_METRIC_LINES } from '../../src/web/pages/home.js';
import { type RunningViewer, startViewer } from '../../src/web/server.js';
import { Site } from '../../src/web/site.js';
import { launchChromium, openPage } from '../support/browser.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

/** Twelve generators, names as long as real ones. */
const MODELS = [
  'wan2.2-i2v-a14b',
  'hunyuanvideo-1.5-i2v',
  'kling-2.1-master',
  'veo-3-fast',
  'seedance-1.0-pro',
  'ltx-video-0.9.8-13b',
  'cogvideox-5b-i2v',
  'runway-gen4-turbo',
  'pika-2.2',
  'hailuo-02-standard',
  'vidu-q1-reference',
  'mochi-1-preview',
];
/** The two of them also evaluated on a case that asks for audio (ms-06), without an audio judge. */
const EVALUATED = MODELS.slice(0, 2);

let emu: Emulator;
let browser: Browser;
let compassViewer: RunningViewer;
let heroViewer: RunningViewer;
let dir = '';

beforeAll(async () => {
  const p = await sharedMiniCompass();
  emu = await startEmulator();
  dir = tempDir('kfbench-layout-');
  for (const sub of ['a', 'b']) mkdirSync(join(dir, sub));
  const twelve = oneCaseFile(p, 'ot-12', join(dir, 'a'));
  const audio = oneCaseFile(p, 'ms-06', join(dir, 'b'));
  const both = join(dir, 'cases.jsonl');
  writeFileSync(both, readFileSync(twelve, 'utf8') + readFileSync(audio, 'utf8'));
  const videos = join(dir, 'videos');
  // every model's videos are the faithful model's (hard links: one scan each, from the scan cache)
  for (const model of MODELS) {
    mkdirSync(join(videos, model), { recursive: true });
    for (const c of EVALUATED.includes(model) ? ['ot-12', 'ms-06'] : ['ot-12'])
      for (const mode of ['minimal', 'segment_specific'])
        linkSync(join(p.videos, 'faithful', `${c}__${mode}.mp4`), join(videos, model, `${c}__${mode}.mp4`));
  }
  const score = await runCli([
    ...['compass', 'score', '--cases', twelve, '--videos', videos, '--model', ...MODELS],
    ...['--out', join(dir, 'score')],
  ]);
  expect(score.code, score.stderr).toBe(0);
  const evaluate = await runCli([
    ...['compass', 'evaluate', '--cases', audio, '--videos', videos, '--model', ...EVALUATED],
    ...['--out', join(dir, 'eval'), '--segmenter', 'pixel', '--judge', `openai:kfbench-emulator@${emu.url}`],
    '--no-judge-audio', // without an audio judge (audio is judged by default when the videos carry sound)
  ]);
  expect(evaluate.code, evaluate.stderr).toBe(0);
  const data = await loadViewerData({
    cases: both,
    videos,
    compassResults: [join(dir, 'score'), join(dir, 'eval')],
  });
  compassViewer = await startViewer(new Site(data, new MediaCache(join(dir, 'cache'), 'never')));
  const mini = await sharedMiniHero();
  const heroData = await loadViewerData({ data: mini.data, track: mini.track });
  heroViewer = await startViewer(new Site(heroData, new MediaCache(join(dir, 'hero-cache'), 'never')));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await compassViewer?.close();
  await heroViewer?.close();
  await emu?.close();
});

async function open(viewer: RunningViewer, name: string, width: number): Promise<Page> {
  const page = await openPage(browser, { width, height: 900 });
  await page.goto(viewer.url + pageHref(name));
  await page.waitForLoadState('networkidle');
  return page;
}

/**
 * Every element that sticks out sideways: beyond the window, beyond its parent's box (unless the
 * parent scrolls sideways on purpose), or with content cut by its own box (a caption "targe…").
 */
function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const W = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > W)
      out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${W}`);
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.trim().replace(/\s+/g, '.')}` : ''}`;
    for (const e of document.querySelectorAll('body *')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const what = `${name(e)} "${(e.textContent ?? '').trim().slice(0, 30)}"`;
      if (r.left < -0.5 || r.right > W + 0.5)
        out.push(`${what} [${Math.round(r.left)}, ${Math.round(r.right)}] outside the window 0–${W}`);
      const parent = e.parentElement;
      if (parent && parent !== document.body) {
        const pr = parent.getBoundingClientRect();
        const scrolls = ['auto', 'scroll'].includes(getComputedStyle(parent).overflowX);
        if (!scrolls && (r.left < pr.left - 0.5 || r.right > pr.right + 0.5))
          out.push(
            `${what} [${Math.round(r.left)}, ${Math.round(r.right)}] outside its ${name(parent)} [${Math.round(pr.left)}, ${Math.round(pr.right)}]`,
          );
      }
      const own = getComputedStyle(e).overflowX;
      if (own !== 'visible' && own !== 'auto' && own !== 'scroll' && e.scrollWidth > e.clientWidth + 1)
        out.push(`${what} cut: ${e.scrollWidth} px of content in ${e.clientWidth}`);
    }
    return out;
  });
}

describe('the Compass board says which table, over how many cases, by which formula, as the command line does', () => {
  it('the video-only table when no audio was judged: its cases and formula, and no A/V column (issues 54 item 2, 57 item 3)', async () => {
    const lb = JSON.parse(readFileSync(join(dir, 'eval', 'leaderboard.json'), 'utf8'));
    expect(lb.table).toBe('video');
    const page = await open(compassViewer, 'index.html', 1280);
    const board = page.locator('#compass section.board .quality-board[data-table="video"]').first();
    const head = await board.locator('table.quality-scores thead th').allInnerTexts();
    expect(head).toContain('Overall');
    expect(head).toContain('KF control');
    expect(head).not.toContain('A/V coordination');
    for (const m of lb.models) {
      const row = board.locator(`table.quality-scores tbody tr[data-model="${m.model}"]`);
      expect(await row.locator('td.av').count()).toBe(0);
      expect(await row.locator('td.overall').innerText()).toBe(m.overall.toFixed(3));
    }
    const meta = await board.locator('p.table-meta').allInnerTexts();
    expect(meta[0]).toBe(`ranked: the video-only leaderboard, over ${lb.cases.count} cases (all evaluated)`);
    expect(meta[1]).toBe(`Overall: ${lb.formula}`);
    // only one table: no audio was judged
    expect(await page.locator('#compass .quality-board[data-table="joint"]').count()).toBe(0);
    await page.close();
  });
});

describe('the home page of a 12-model set at 1280 px', () => {
  it('no model row is clipped: the page does not scroll sideways, a wide table scrolls inside its own box', async () => {
    const page = await open(compassViewer, 'index.html', 1280);
    const bad = await page.evaluate(() => {
      const W = document.documentElement.clientWidth;
      const out: string[] = [];
      if (document.documentElement.scrollWidth > W)
        out.push(`page ${document.documentElement.scrollWidth} > ${W}`);
      const scrolls = (e: Element) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
      for (const e of document.querySelectorAll('#compass *')) {
        const r = e.getBoundingClientRect();
        if (r.right <= W + 0.5) continue;
        // reachable when a box that fits the window scrolls sideways around it
        let ok = false;
        for (let p = e.parentElement; p && !ok; p = p.parentElement)
          ok = scrolls(p) && p.getBoundingClientRect().right <= W + 0.5;
        if (!ok)
          out.push(
            `${e.tagName.toLowerCase()}.${e.className} "${(e.textContent ?? '').trim().slice(0, 30)}" right ${Math.round(r.right)}`,
          );
      }
      // every model's name cell is in view
      for (const th of document.querySelectorAll('#compass tr[data-model] > th'))
        if (th.getBoundingClientRect().right > W + 0.5)
          out.push(`name cell ${th.textContent} right ${Math.round(th.getBoundingClientRect().right)}`);
      return out.slice(0, 5);
    });
    expect(bad).toEqual([]);
    await page.close();
  });
});

describe('a case page of a 12-model set at 1280 px', () => {
  it('the model picker wraps, every caption is whole, nothing sticks out', async () => {
    const page = await open(compassViewer, `case-ot-12~minimal~${MODELS[5]}.html`, 1280);
    const picks = page.locator('nav.choose .model');
    expect(await picks.count()).toBe(12);
    const rows = new Set(
      await picks.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top))),
    );
    expect(rows.size).toBeGreaterThan(1); // wrapped onto more than one row
    const caps = page.locator('.kf-strip .kf .cap');
    expect(await caps.count()).toBe(12);
    for (const t of await caps.allInnerTexts()) expect(t).toMatch(/^k\d+ \S+ · target \d+\.\d{3} s$/);
    expect(await overflows(page)).toEqual([]);
    await page.close();
  });
});

describe('the HeroFrame board explains its columns', () => {
  it('S, S_f, S@k, top-1 and beat-the-still in one line each, as SPEC §3.2 defines them', async () => {
    const page = await open(heroViewer, 'index.html', 1280);
    const defs = page.locator('#hero dl.metric-defs');
    expect(await defs.locator('dt').allInnerTexts()).toEqual(['S', 'S_f', 'S@k', 'top-1', 'beat the still']);
    const lines = await defs.locator('dd').allInnerTexts();
    expect(lines).toEqual(HERO_METRIC_LINES.map(([, v]) => v));
    // the definitions, in the spec's terms
    expect(lines[0]).toMatch(/s = \(number of images of .* placed above\) \/ 6; S = mean over films/);
    expect(lines[1]).toMatch(/film's score: mean of s over the method's frames and the film's chains/);
    expect(lines[2]).toMatch(/rank ≤ k/);
    expect(lines[3]).toMatch(/share of insertions with s = 1.*averaged per film first, like S/);
    expect(lines[4]).toMatch(/placed above the chain's publicity still, averaged per film first, like S/);
    // one line each at 1280 px
    const heights = await defs
      .locator('dd')
      .evaluateAll((els) =>
        els.map((e) => e.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(e).lineHeight)),
      );
    for (const h of heights) expect(h).toBeLessThan(1.5);
    await page.close();
  });
});
