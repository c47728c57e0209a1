/**
 * The viewer serves only the files the loaded data names (issue 31): the keyframe images of the
 * cases are there; a dotfile (`.ssh/id_rsa`), an image no case names and the cases file itself,
 * all inside the folder holding cases.jsonl, are 404 — over real HTTP from a running viewer.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViewerData } from '../../src/web/data.js';
import { MediaCache } from '../../src/web/media.js';
import { type RunningViewer, startViewer } from '../../src/web/server.js';
import { Site } from '../../src/web/site.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

let viewer: RunningViewer;
let images: string[] = [];
beforeAll(async () => {
  const compass = await sharedMiniCompass();
  const dir = tempDir('kfbench-allow-list-');
  const line = readFileSync(compass.cases, 'utf8')
    .split('\n')
    .find((l) => l.includes('"case_id":"ot-03"'))!;
  const c = JSON.parse(line);
  mkdirSync(join(dir, 'keyframes', '.ssh'), { recursive: true });
  c.keyframes = c.keyframes.map((k: { image: string }) => {
    const rel = `keyframes/${basename(k.image)}`;
    copyFileSync(join(compass.root, k.image), join(dir, rel));
    return { ...k, image: rel };
  });
  images = c.keyframes.map((k: { image: string }) => k.image);
  writeFileSync(join(dir, 'cases.jsonl'), `${JSON.stringify(c)}\n`);
  writeFileSync(join(dir, 'keyframes', '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\n');
  writeFileSync(join(dir, 'keyframes', '.env'), 'API_KEY=secret\n');
  copyFileSync(join(dir, images[0]!), join(dir, 'keyframes', 'unlisted.png'));
  writeFileSync(join(dir, 'notes.txt'), 'private\n');
  const site = new Site(
    await loadViewerData({ cases: join(dir, 'cases.jsonl') }),
    new MediaCache(join(dir, 'cache'), 'never'),
  );
  viewer = await startViewer(site);
});
afterAll(async () => viewer?.close());

const status = async (path: string) => (await fetch(`${viewer.url}files/keyframes/${path}`)).status;

describe('viewer allow-list', () => {
  it('serves the keyframe images the cases name', async () => {
    expect(images.length).toBeGreaterThan(0);
    for (const im of images) expect(await status(im), im).toBe(200);
  });

  it.each(['keyframes/.ssh/id_rsa', 'keyframes/.env', 'keyframes/unlisted.png', 'cases.jsonl', 'notes.txt'])(
    'refuses %s (in the folder of cases.jsonl, named by no case): 404',
    async (path) => {
      expect(await status(path)).toBe(404);
    },
  );
});
