/**
 * `compass init`: a cases.jsonl skeleton for your own videos, one case per video, that validates
 * as it is — keyframe slots filled with frames of the video at evenly spaced target times, both
 * prompt modes and the story summary marked TODO — so that scoring runs at once and you replace
 * what the generator was really given (its keyframe images, its prompts) line by line.
 * A video is `<case_id>.mp4` or `<case_id>__<prompt_mode>.mp4`, in the folder or in its model
 * folders (`<model>/<case_id>__<prompt_mode>.mp4`, the layout `compass score` reads).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { BadInputError } from '../../errors.js';
import { streamFrames } from '../../media/frames.js';
import { encodeImage } from '../../media/image.js';
import { probe } from '../../media/probe.js';
import { type OnProgress, phaseReporter } from '../../progress.js';
import { environmentError } from '../../store/fs-errors.js';
import { writeOutputFolder } from '../../store/out-folder.js';
import { refuseOverlap } from '../../store/path-overlap.js';
import { type Case, SAFE_ID } from './cases.js';

export interface InitOptions {
  videos: string;
  /** The cases.jsonl to write (a new file); keyframe images go to `keyframes/` beside it. */
  out: string;
  /** Keyframe slots per case: any count ≥ 1 (default 3; the published set has 3, 6, 9 or 12). */
  keyframes?: number;
  onProgress?: OnProgress;
}

export interface InitResult {
  cases: number;
  file: string;
  keyframesDir: string;
}

const TODO = 'TODO:';

/** Case id → the first video of it found (sorted), from the folder and its model folders. */
function findVideos(videos: string): Map<string, string> {
  if (!existsSync(videos) || !statSync(videos).isDirectory())
    throw new BadInputError('no such videos folder', { file: videos });
  const found = new Map<string, string>();
  const consider = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const m = /^(.+?)(?:__(minimal|segment_specific))?\.mp4$/.exec(name);
      if (!m || found.has(m[1]!)) continue;
      if (!SAFE_ID.test(m[1]!))
        throw new BadInputError(`${name}: the case id "${m[1]}" must be letters, digits, ".", "_" or "-"`, {
          file: dir,
        });
      found.set(m[1]!, join(dir, name));
    }
  };
  consider(videos);
  for (const name of readdirSync(videos).sort())
    if (!name.startsWith('.') && statSync(join(videos, name)).isDirectory()) consider(join(videos, name));
  if (found.size === 0)
    throw new BadInputError(
      'holds no .mp4 video (neither <case_id>.mp4 nor <model>/<case_id>__<prompt_mode>.mp4)',
      {
        file: videos,
      },
    );
  return found;
}

/**
 * Writes the cases file and `keyframes/` beside it whole or not at all (issue 46, item 7): the
 * images are written to a staging folder and the cases file to a temp name, both beside their
 * targets; only when all are written are they renamed into place (`writeOutputFolder`). A full
 * disk leaves neither (exit 4 naming the file).
 */
export async function initCases(o: InitOptions): Promise<InitResult> {
  const n = o.keyframes ?? 3;
  if (!Number.isInteger(n) || n < 1) throw new BadInputError(`a case has at least 1 keyframe, not ${n}`);
  const file = resolve(o.out);
  if (existsSync(file)) throw new BadInputError('already exists: init writes a new cases file', { file });
  const keyframesDir = join(dirname(file), 'keyframes');
  refuseOverlap({
    reads: [{ flag: '--videos', path: o.videos }],
    writes: [
      { flag: '--out', path: o.out },
      { flag: '--out (its keyframes/)', path: keyframesDir },
    ],
  });
  const videos = findVideos(resolve(o.videos));
  const progress = phaseReporter(o.onProgress, 'init', 'videos');
  progress.start(videos.size);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    let cases = 0;
    await writeOutputFolder(keyframesDir, async (stage) => {
      const lines: string[] = [];
      for (const [caseId, video] of videos) {
        lines.push(JSON.stringify(await initCase(caseId, video, n, stage, file)));
        progress.done(caseId);
      }
      progress.finish();
      try {
        await writeFile(tmp, `${lines.join('\n')}\n`);
      } catch (e) {
        throw environmentError(e, file);
      }
      cases = lines.length;
    });
    try {
      await rename(tmp, file);
    } catch (e) {
      throw environmentError(e, file, 'cannot move into place');
    }
    return { cases, file, keyframesDir };
  } finally {
    await rm(tmp, { force: true });
  }
}

/** One case's skeleton, its keyframe images written under `stage` (named as they will be placed). */
async function initCase(
  caseId: string,
  video: string,
  n: number,
  stage: string,
  file: string,
): Promise<Case> {
  const info = await probe(video);
  // targets at the middles of n equal spans: inside the video, increasing
  const times = Array.from({ length: n }, (_, k) => Number((((k + 0.5) * info.duration_s) / n).toFixed(3)));
  const dir = join(stage, caseId);
  const placedDir = join(dirname(file), 'keyframes', caseId);
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw environmentError(e, placedDir, 'cannot make the folder');
  }
  const keyframes: Case['keyframes'] = [];
  let k = 0;
  for await (const f of streamFrames(info, { kind: 'times', times }, {})) {
    const kfId = `kf${String(k + 1).padStart(2, '0')}`;
    const image = join(placedDir, `${kfId}.png`);
    try {
      await writeFile(join(dir, `${kfId}.png`), await encodeImage(f, { format: 'png' }));
    } catch (e) {
      throw environmentError(e, image);
    }
    keyframes.push({ kf_id: kfId, image: relative(dirname(file), image), t_target_s: times[k]! });
    k++;
  }
  if (keyframes.length !== n)
    throw new BadInputError(`gave ${keyframes.length} of the ${n} frames asked for`, { file: video });
  return {
    case_id: caseId,
    domain: 'daily',
    structure: 'one_take',
    duration_s: Number(info.duration_s.toFixed(3)),
    keyframes,
    prompts: {
      minimal: `${TODO} the short prompt your generator was given with the ${n} keyframe${n === 1 ? '' : 's'}`,
      segment_specific: `${TODO} the prompt with one sentence per segment between keyframes`,
    },
    story_summary: `${TODO} one or two sentences of what happens`,
    conditioning: 'image_list',
  };
}
