/**
 * `kfbench compass mini --size published` (or a fraction, `--size 1/8`): 386 generated Compass
 * cases in the published layout (SPEC §4), each in both prompt modes, for scale benchmarks. The
 * cases cycle through the mini set's shapes (one-take / multi-shot × 3, 6, 9, 12 keyframes, three
 * domains, both conditionings; mini-compass/build.ts makes the records), with keyframes from the
 * mini image pool at 160×90 and one "model", `faithful` (mini-compass/plans.ts), rendered at
 * 160×90, 24 fps: 4.5–18 s per video. The two prompt modes' videos show the same plan at two
 * encoder qualities, so their bytes (and a scan cache's keys) differ, as two generations would.
 * Deterministic; a few minutes at the full size.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Case, PROMPT_MODES } from '../compass/cases/cases.js';
import { encodeImage, resizeImage } from '../media/image.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { writeJsonl } from '../store/jsonl.js';
import { finishBuild, isBuilt, startBuild } from './build-folder.js';
import { caseRecord, kfId, type MiniCaseSpec } from './mini-compass/build.js';
import { imagePool } from './mini-compass/images.js';
import { planMultiShot, planOneTake } from './mini-compass/plans.js';
import { renderVideo } from './mini-compass/render.js';
import { PUBLISHED_COMPASS, scaled } from './published-size.js';

const PUBLISHED_COMPASS_VERSION = '1';
const PUBLISHED_COMPASS_MODEL = 'faithful';
const W = 160;
const H = 90;
const KEYFRAMES = 12;
const FILLERS = 4;

export interface PublishedCompassPaths {
  root: string;
  cases: string;
  videos: string;
  model: string;
  counts: { cases: number; videos: number };
}

/** Case i's shape: the mini set's eight shapes in turn, domains and conditionings rotating. */
function publishedCaseSpec(i: number): MiniCaseSpec {
  const n = ([3, 6, 9, 12] as const)[i % 4]!;
  return {
    case_id: `pc-${String(i + 1).padStart(4, '0')}`,
    structure: Math.floor(i / 4) % 2 === 0 ? 'one_take' : 'multi_shot',
    n,
    domain: (['daily', 'product', 'cinematic'] as const)[i % 3]!,
    conditioning: i % 5 === 0 ? 'storyboard_grid' : 'image_list',
    audio: false,
  };
}

/** Build the set at `fraction` of the published counts unless a complete one is there. */
export async function buildPublishedCompass(
  out: string,
  opts: { fraction: number; onProgress?: OnProgress },
): Promise<PublishedCompassPaths> {
  const count = scaled(PUBLISHED_COMPASS.cases, opts.fraction);
  const p: PublishedCompassPaths = {
    root: out,
    cases: join(out, 'cases.jsonl'),
    videos: join(out, 'videos'),
    model: PUBLISHED_COMPASS_MODEL,
    counts: { cases: count, videos: count * PROMPT_MODES.length },
  };
  const folder = {
    out,
    name: '.published-compass',
    version: `${PUBLISHED_COMPASS_VERSION}/${count}`,
    what: 'a generated Compass set at the published size',
  };
  if (await isBuilt(folder)) return p;
  await startBuild(folder);
  const pool = await Promise.all(
    (await imagePool(KEYFRAMES + FILLERS)).map((img) => resizeImage(img, W, H, 'fill')),
  );
  const fillers = pool.slice(KEYFRAMES);
  const pngs = await Promise.all(pool.map((img) => encodeImage(img, { format: 'png' })));
  const records: Case[] = [];
  const progress = phaseReporter(opts.onProgress, 'published-compass', 'videos');
  progress.start(p.counts.videos, 'rendering');
  const mdir = join(p.videos, PUBLISHED_COMPASS_MODEL);
  await mkdir(mdir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const spec = publishedCaseSpec(i);
    const order = Array.from({ length: spec.n }, (_, k) => (k * 5 + i * 3) % KEYFRAMES);
    const dir = join(out, 'keyframes', spec.case_id);
    await mkdir(dir, { recursive: true });
    for (const [k, at] of order.entries()) await writeFileAtomic(join(dir, `${kfId(k)}.png`), pngs[at]!);
    const keyframes = order.map((at) => pool[at]!);
    const images = { keyframes, drifted: keyframes, fillers };
    const segments =
      spec.structure === 'one_take' ? planOneTake('faithful', images) : planMultiShot('faithful', images);
    for (const [m, mode] of PROMPT_MODES.entries()) {
      await renderVideo(join(mdir, `${spec.case_id}__${mode}.mp4`), segments, W, H, { crf: 8 + 2 * m });
      progress.done(`${spec.case_id}__${mode}`);
    }
    records.push(caseRecord(spec));
  }
  progress.finish();
  await writeJsonl(p.cases, Case, records);
  await finishBuild(folder, { fraction: opts.fraction, ...p.counts });
  return p;
}
