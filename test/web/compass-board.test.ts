/// <reference lib="dom" />
/**
 * The viewer's Compass section says what the command line says (Debian's Chromium through
 * playwright-core): the segmenter, coverage and the videos not scored per model, a heading over each
 * table, "–" for the spread of a single run; and a case page offers "run compass evaluate" only when
 * no folder shown holds that video's evaluation.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS } from '../../src/compass/schemas/response.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { loadViewerData } from '../../src/web/data.js';
import { MediaCache } from '../../src/web/media.js';
import { pageHref } from '../../src/web/page-names.js';
import { type RunningViewer, startViewer } from '../../src/web/server.js';
import { Site } from '../../src/web/site.js';
import { launchChromium, openPage } from '../support/browser.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

let emu: Emulator;
let browser: Browser;
let viewer: RunningViewer;
let dir = '';

beforeAll(async () => {
  const p = await sharedMiniCompass();
  emu = await startEmulator();
  dir = tempDir('kfbench-compass-board-');
  const cases = oneCaseFile(p, 'ot-03', dir);
  // faithful has both prompt modes; cut lacks its segment_specific video
  for (const [model, modes] of [
    ['faithful', ['minimal', 'segment_specific']],
    ['cut', ['minimal']],
  ] as const) {
    mkdirSync(join(dir, 'videos', model), { recursive: true });
    for (const mode of modes)
      copyFileSync(
        join(p.videos, model, `ot-03__${mode}.mp4`),
        join(dir, 'videos', model, `ot-03__${mode}.mp4`),
      );
  }
  const common = ['--cases', cases, '--videos', join(dir, 'videos'), '--model', 'faithful', 'cut'];
  const score = await runCli(['compass', 'score', ...common, '--out', join(dir, 'score')]);
  expect(score.code, score.stderr).toBe(5); // cut's missing video
  const evaluate = await runCli([
    ...['compass', 'evaluate', ...common, '--out', join(dir, 'eval'), '--segmenter', 'pixel'],
    ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--no-judge-audio'],
  ]);
  expect(evaluate.code, evaluate.stderr).toBe(5);
  const data = await loadViewerData({
    cases,
    videos: join(dir, 'videos'),
    compassResults: [join(dir, 'score'), join(dir, 'eval')],
  });
  viewer = await startViewer(new Site(data, new MediaCache(join(dir, 'cache'), 'never')));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  await emu?.close();
});

async function open(name: string, width = 1400): Promise<Page> {
  const page = await openPage(browser, { width, height: 900 });
  await page.goto(viewer.url + pageHref(name));
  await page.waitForLoadState('networkidle');
  return page;
}

describe('the Compass section of the viewer', () => {
  it('names the segmenter, shows coverage and the videos not scored, a heading per table, "–" for one run', async () => {
    const page = await open('index.html');
    const boards = page.locator('#compass section.board');
    expect(await boards.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      const board = boards.nth(i);
      expect(await board.locator('.meta code.segmenter').innerText()).toBe('pixel');
      // cut lacks one of its two videos: named, and its coverage 1/2
      const li = board.locator('ul.not-scored li[data-model="cut"]');
      expect(await li.innerText()).toContain('ot-03__segment_specific (missing)');
      expect(await board.locator('table.compass-scores tr[data-model="cut"] td.coverage').innerText()).toBe(
        '1/2',
      );
      expect(
        await board.locator('table.compass-scores tr[data-model="faithful"] td.coverage').innerText(),
      ).toBe('2/2');
    }
    const evalBoard = boards.nth(1);
    // every table of the board has a heading right above it
    const titles = await evalBoard.locator('h4.table-title').allInnerTexts();
    expect(titles).toEqual([
      'Video-only leaderboard (compass evaluate)',
      'Keyframe response: the six metrics (compass score)',
    ]);
    const quality = evalBoard.locator('table.quality-scores').first();
    // one run: no spread column, the run count said above the table; the video-only table shows no
    // A/V column (its Overall does not use it), and no flagged column when nothing was flagged
    expect(await quality.locator('td.sd').count()).toBe(0);
    expect(await evalBoard.locator('.quality-board p.sort-key').first().innerText()).toBe(
      'sorted by Overall, best first · 1 run (no spread to show)',
    );
    const heads = await quality.locator('thead th').allInnerTexts();
    expect(heads.some((h) => /A\/V|AV|av_coordination/i.test(h))).toBe(false);
    expect(await quality.locator('td.av').count()).toBe(0);
    const flagged = await quality.locator('td.flagged').allInnerTexts();
    expect(flagged.every((f) => f.trim() !== '')).toBe(true);
    expect(await quality.locator('tr[data-model="cut"] td.coverage').innerText()).toBe('1/2');
    expect(await page.locator('text=0.000 (').count()).toBe(0);
    // the builtin embedder is not the paper's: each board says so, as the command line does (issue 54 item 1)
    for (let i = 0; i < 2; i++)
      expect(await boards.nth(i).locator('p.paper-note').innerText()).toMatch(
        /^Not on the paper's scale: embedder builtin\S* is not the paper's \(L2-normalized DINOv3 features, γ⋆ = 0\.80\).*--embedder dinov3-small gives the paper's\.$/,
      );
    await page.close();
  });

  it('a case page says "run compass evaluate" only when no folder shown has that evaluation', async () => {
    const page = await open('case-ot-03~minimal~faithful.html');
    const text = await page.locator('body').innerText();
    expect(text).not.toContain('No video-quality evaluation');
    expect(await page.locator('h2', { hasText: 'Video quality checklist' }).count()).toBe(1);
    await page.close();
  });

  it("a case page at 1280 px: every keyframe caption is shown whole (none cut to 'targe…')", async () => {
    const page = await open('case-ot-03~minimal~faithful.html', 1280);
    const caps = page.locator('.kf-strip .kf .cap');
    expect(await caps.count()).toBeGreaterThan(0);
    const cut = await caps.evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
    );
    expect(cut).toEqual([]);
    // the target as the case gives it, to the millisecond (2.040 s), not rounded to 2.0 s
    for (const t of await caps.allInnerTexts()) expect(t).toMatch(/target \d+\.\d{3} s/);
    // nothing wider than the window
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 1281)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
        .slice(0, 3),
    );
    expect(wide).toEqual([]);
    await page.close();
  });

  it('defines t(k), f*, S_f and the six metric names one line each, on the board and on a case page', async () => {
    const want = ['f*', 't(k)', 'S_f', ...METRICS];
    for (const name of ['index.html', 'case-ot-03~minimal~faithful.html']) {
      const page = await open(name, 1280);
      const terms = await page.locator('dl.compass-defs dt').allInnerTexts();
      expect(terms, name).toEqual(want);
      for (const d of await page.locator('dl.compass-defs dd').allInnerTexts())
        expect(d.length).toBeGreaterThan(10);
      await page.close();
    }
  });

  it("the response table is in compass score's ranking (here the KF fidelity chart's too); a header click re-sorts", async () => {
    const page = await open('index.html', 1280);
    const board = page.locator('#compass section.board').first();
    const chart = await board
      .locator('svg[aria-label^="Compass KF fidelity per model"] g.bar')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-label')));
    const table = board.locator('table.compass-scores');
    const rows = () =>
      table.locator('tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-model')));
    expect(chart).toEqual(['faithful', 'cut']);
    expect(await rows()).toEqual(chart);
    await table.locator('thead th', { hasText: /^model$/ }).click();
    expect(await rows()).toEqual(['cut', 'faithful']);
    await table.locator('thead th', { hasText: /^model$/ }).click();
    expect(await rows()).toEqual(['faithful', 'cut']);
    await table.locator('thead th', { hasText: /^presence$/ }).click();
    const presence = await table.locator('tbody tr td:nth-child(4)').allInnerTexts();
    expect(presence.map(Number)).toEqual([...presence.map(Number)].sort((a, b) => b - a));
    await page.close();
  });

  it('at 1280 px no method row is clipped: the page is no wider than the window, wide tables scroll', async () => {
    const page = await open('index.html', 1280);
    const out = await page.evaluate(() => {
      const scroll = (e: Element) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
      return [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 1281)
        .filter((e) => {
          // inside a box that scrolls horizontally and itself fits the window: reachable, not clipped
          for (let p = e.parentElement; p; p = p.parentElement)
            if (scroll(p) && p.getBoundingClientRect().right <= 1281) return false;
          return true;
        })
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
        .slice(0, 3);
    });
    expect(out).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    // each model's name (the row's first cell) is in view
    for (const th of await page.locator('#compass tr[data-model] > th').all()) {
      const box = await th.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(1281);
    }
    await page.close();
  });

  it('a case page shows the per-keyframe table once when two folders hold the same response', async () => {
    const page = await open('case-ot-03~minimal~faithful.html', 1280);
    expect(await page.locator('section.result').count()).toBe(2);
    expect(await page.locator('table.kf-table').count()).toBe(1);
    expect(await page.locator('p.same-response').count()).toBe(1);
    await page.close();
  });
});
