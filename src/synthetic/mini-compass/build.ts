/**
 * `kfbench compass mini`: a small, deterministic Compass set in the published layout (SPEC §4):
 * `cases.jsonl`, `keyframes/<case_id>/<kf_id>.png`, and
 * `videos/<model>/<case_id>__<prompt_mode>.mp4` for every fault "model" of `plans.ts` and both
 * prompt modes (a mini model ignores the prompt, so both files hold the same video). Eight
 * cases: one-take and multi-shot × 3, 6, 9 and 12 keyframes, 320×180 at 24 fps. Every video has
 * a sound track (AAC, mono): a tone while the picture holds still (`audio.ts`), in sync but for
 * the `audio-lag` model's.
 * Beside them `pairs.jsonl`, labelled pairs for `kfbench embed calibrate`: each keyframe with the
 * frame the `drift` model shows for it (`pairs/<case_id>/<kf_id>.png`, label 1) and with the one
 * it shows for the case's next keyframe (label 0) — the paper's validation pairs are a keyframe
 * and a response frame, labelled by whether they share "at least one salient subject, object,
 * or event participant".
 */
import { copyFile, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { Case, PROMPT_MODES, type Structure } from '../../compass/cases/cases.js';
import { CalibrationPair } from '../../embed/calibrate.js';
import { encodeImage } from '../../media/image.js';
import { type OnProgress, phaseReporter } from '../../progress.js';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { writeJsonl } from '../../store/jsonl.js';
import { copyFromMaterialCache, finishBuild, isBuilt, startBuild } from '../build-folder.js';
import { driftImage, imagePool, MINI_H, MINI_W } from './images.js';
import {
  AUDIO_LAG,
  AUDIO_MODELS,
  type AudioModel,
  MODELS,
  type Model,
  multiShotDuration,
  multiShotLayout,
  oneTakeTargets,
  planMultiShot,
  planOneTake,
  QUALITY_MODELS,
  type QualityModel,
  type QualityPlan,
  qualityPlan,
} from './plans.js';
import { MINI_FPS, renderVideo } from './render.js';

const MINI_COMPASS_VERSION = '4';
const KEYFRAMES = 12;
const FILLERS = 4;

export interface MiniCaseSpec {
  case_id: string;
  structure: Structure;
  n: 3 | 6 | 9 | 12;
  domain: 'daily' | 'product' | 'cinematic';
  conditioning: 'image_list' | 'storyboard_grid';
  audio: boolean;
}

export const MINI_CASES: MiniCaseSpec[] = [
  {
    case_id: 'ot-03',
    structure: 'one_take',
    n: 3,
    domain: 'daily',
    conditioning: 'image_list',
    audio: false,
  },
  {
    case_id: 'ot-06',
    structure: 'one_take',
    n: 6,
    domain: 'product',
    conditioning: 'storyboard_grid',
    audio: false,
  },
  {
    case_id: 'ot-09',
    structure: 'one_take',
    n: 9,
    domain: 'cinematic',
    conditioning: 'image_list',
    audio: true,
  },
  {
    case_id: 'ot-12',
    structure: 'one_take',
    n: 12,
    domain: 'daily',
    conditioning: 'image_list',
    audio: false,
  },
  {
    case_id: 'ms-03',
    structure: 'multi_shot',
    n: 3,
    domain: 'cinematic',
    conditioning: 'storyboard_grid',
    audio: false,
  },
  {
    case_id: 'ms-06',
    structure: 'multi_shot',
    n: 6,
    domain: 'daily',
    conditioning: 'image_list',
    audio: true,
  },
  {
    case_id: 'ms-09',
    structure: 'multi_shot',
    n: 9,
    domain: 'product',
    conditioning: 'image_list',
    audio: false,
  },
  {
    case_id: 'ms-12',
    structure: 'multi_shot',
    n: 12,
    domain: 'cinematic',
    conditioning: 'storyboard_grid',
    audio: false,
  },
];

export interface MiniCompassPaths {
  root: string;
  cases: string;
  videos: string;
  /** Keyframe-response faults (and `faithful`). */
  models: readonly Model[];
  /** Video-quality faults, each on top of the faithful video. */
  qualityModels: readonly QualityModel[];
  /** Audio faults: the faithful video with its sound track changed. */
  audioModels: readonly AudioModel[];
  /** Labelled keyframe/frame pairs (`{"a", "b", "label": 1|0}`) for `embed calibrate`. */
  pairs: string;
}

function miniCompassPaths(out: string): MiniCompassPaths {
  return {
    root: out,
    cases: join(out, 'cases.jsonl'),
    videos: join(out, 'videos'),
    models: MODELS,
    qualityModels: QUALITY_MODELS,
    audioModels: AUDIO_MODELS,
    pairs: join(out, 'pairs.jsonl'),
  };
}

export const kfId = (i: number) => `kf${String(i + 1).padStart(2, '0')}`;

export function caseRecord(spec: MiniCaseSpec): Case {
  const n = spec.n;
  const one = spec.structure === 'one_take';
  const { targets, duration_s } = oneTakeTargets(n, MINI_FPS);
  const shots = multiShotLayout(n);
  const keyframes = Array.from({ length: n }, (_, i) => {
    const image = `keyframes/${spec.case_id}/${kfId(i)}.png`;
    if (one) return { kf_id: kfId(i), image, t_target_s: Math.round(targets[i]! * 1e6) / 1e6 };
    const s = shots.findIndex((sh) => sh.kfs.includes(i));
    const shot = shots[s]!;
    const shot_position =
      shot.kfs.length === 1
        ? ('representative' as const)
        : shot.kfs[0] === i
          ? ('first' as const)
          : ('last' as const);
    return { kf_id: kfId(i), image, shot_index: s, shot_position };
  });
  const when = one
    ? keyframes.map((k) => `at ${k.t_target_s} s show ${k.kf_id}`)
    : shots.map((sh, s) => `shot ${s + 1}: ${sh.kfs.map(kfId).join(' then ')}`);
  return {
    case_id: spec.case_id,
    domain: spec.domain,
    structure: spec.structure,
    duration_s: one ? duration_s : multiShotDuration(n, MINI_FPS),
    keyframes,
    prompts: {
      minimal: one
        ? `One continuous take that passes through the ${n} keyframes in order.`
        : `${shots.length} shots that show the ${n} keyframes in order.`,
      segment_specific: `${when.join('; ')}.`,
    },
    story_summary: `A generated ${spec.domain} sequence of ${n} keyframes (mini Compass case).`,
    audio: { requested: spec.audio },
    conditioning: spec.conditioning,
  };
}

/** Build the mini Compass set unless a complete one of this version is there. */
export async function buildMiniCompass(
  out: string,
  opts: { onProgress?: OnProgress; cases?: MiniCaseSpec[]; materialCache?: string | undefined } = {},
): Promise<MiniCompassPaths> {
  const p = miniCompassPaths(out);
  const folder = { out, name: '.mini-compass', version: MINI_COMPASS_VERSION, what: 'a mini Compass set' };
  if (await isBuilt(folder)) return p;
  if (
    !opts.cases &&
    (await copyFromMaterialCache(
      folder,
      (d) => buildMiniCompass(d, opts),
      opts.materialCache,
      opts.onProgress,
    ))
  )
    return p;
  await startBuild(folder);
  const specs = opts.cases ?? MINI_CASES;
  const pool = await imagePool(KEYFRAMES + FILLERS);
  const fillers = pool.slice(KEYFRAMES);
  const records: Case[] = [];
  const pairs: CalibrationPair[] = [];
  const progress = phaseReporter(opts.onProgress, 'mini-compass', 'videos');
  progress.start(specs.length * (MODELS.length + QUALITY_MODELS.length + AUDIO_MODELS.length), 'rendering');
  for (const [i, spec] of specs.entries()) {
    // each case takes its keyframes from the pool in its own order (the same in any subset)
    const known = MINI_CASES.findIndex((x) => x.case_id === spec.case_id);
    const c = known >= 0 ? known : i;
    const keyframes = Array.from({ length: spec.n }, (_, i) => pool[(i * 5 + c * 3) % KEYFRAMES]!);
    const dir = join(out, 'keyframes', spec.case_id);
    await mkdir(dir, { recursive: true });
    for (const [i, img] of keyframes.entries())
      await writeFileAtomic(join(dir, `${kfId(i)}.png`), await encodeImage(img, { format: 'png' }));
    const images = { keyframes, drifted: keyframes.map(driftImage), fillers };
    const pdir = join(out, 'pairs', spec.case_id);
    await mkdir(pdir, { recursive: true });
    for (const [i, img] of images.drifted.entries())
      await writeFileAtomic(join(pdir, `${kfId(i)}.png`), await encodeImage(img, { format: 'png' }));
    for (let i = 0; i < spec.n; i++) {
      const a = `keyframes/${spec.case_id}/${kfId(i)}.png`;
      pairs.push({ a, b: `pairs/${spec.case_id}/${kfId(i)}.png`, label: 1 });
      pairs.push({ a, b: `pairs/${spec.case_id}/${kfId((i + 1) % spec.n)}.png`, label: 0 });
    }
    const faithful =
      spec.structure === 'one_take' ? planOneTake('faithful', images) : planMultiShot('faithful', images);
    const jobs: { model: Model | QualityModel | AudioModel; plan: QualityPlan; lag?: number }[] = [
      ...MODELS.map((model) => ({
        model,
        plan: {
          segments: spec.structure === 'one_take' ? planOneTake(model, images) : planMultiShot(model, images),
        },
      })),
      ...QUALITY_MODELS.map((model) => ({
        model,
        plan: qualityPlan(model, spec.structure, images, MINI_FPS),
      })),
      ...AUDIO_MODELS.map((model) => ({ model, plan: { segments: faithful }, lag: AUDIO_LAG })),
    ];
    for (const { model, plan, lag } of jobs) {
      const mdir = join(p.videos, model);
      await mkdir(mdir, { recursive: true });
      const first = join(mdir, `${spec.case_id}__${PROMPT_MODES[0]}.mp4`);
      await renderVideo(first, plan.segments, MINI_W, MINI_H, {
        ...(plan.filter ? { filter: plan.filter } : {}),
        ...(plan.freeze ? { freeze: plan.freeze } : {}),
        audio: { lag: lag ?? 0 },
      });
      for (const mode of PROMPT_MODES.slice(1)) {
        const f = join(mdir, `${spec.case_id}__${mode}.mp4`);
        await copyFile(first, `${f}.partial`);
        await rename(`${f}.partial`, f);
      }
      progress.done(`${model}/${spec.case_id}`);
    }
    records.push(caseRecord(spec));
  }
  progress.finish();
  await writeJsonl(p.cases, Case, records);
  await writeJsonl(p.pairs, CalibrationPair, pairs);
  await finishBuild(folder, {
    cases: specs.length,
    models: MODELS,
    quality_models: QUALITY_MODELS,
    audio_models: AUDIO_MODELS,
  });
  return p;
}
