/**
 * `compass init`: a cases.jsonl skeleton for your own videos, one case per video, that validates
 * as it is — keyframe slots filled with frames of the video at evenly spaced target times, both
 * prompt modes and the story summary marked TODO — so that scoring runs at once and you replace
 * what the generator was really given (its keyframe images, its prompts) line by line.
 * A video is `<case_id>.mp4` or `<case_id>__<prompt_mode>.mp4`, in the folder or in its model
 * folders (`<model>/<case_id>__<prompt_mode>.mp4`, the layout `compass score` reads).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { BadInputError } from '../errors.js';
import { streamFrames } from '../media/frames.js';
import { encodeImage } from '../media/image.js';
import { probe } from '../media/probe.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { writeFileAtomic } from '../store/atomic-write.js';
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

export async function initCases(o: InitOptions): Promise<InitResult> {
  const n = o.keyframes ?? 3;
  if (!Number.isInteger(n) || n < 1) throw new BadInputError(`a case has at least 1 keyframe, not ${n}`);
  const file = resolve(o.out);
  if (existsSync(file)) throw new BadInputError('already exists: init writes a new cases file', { file });
  const videos = findVideos(resolve(o.videos));
  const keyframesDir = join(dirname(file), 'keyframes');
  const progress = phaseReporter(o.onProgress, 'init', 'videos');
  progress.start(videos.size);
  const lines: string[] = [];
  for (const [caseId, video] of videos) {
    const info = await probe(video);
    // targets at the middles of n equal spans: inside the video, increasing
    const times = Array.from({ length: n }, (_, k) => Number((((k + 0.5) * info.duration_s) / n).toFixed(3)));
    const dir = join(keyframesDir, caseId);
    await mkdir(dir, { recursive: true });
    const keyframes: Case['keyframes'] = [];
    let k = 0;
    for await (const f of streamFrames(info, { kind: 'times', times }, {})) {
      const kfId = `kf${String(k + 1).padStart(2, '0')}`;
      const image = join(dir, `${kfId}.png`);
      await writeFile(image, await encodeImage(f, { format: 'png' }));
      keyframes.push({ kf_id: kfId, image: relative(dirname(file), image), t_target_s: times[k]! });
      k++;
    }
    if (keyframes.length !== n)
      throw new BadInputError(`gave ${keyframes.length} of the ${n} frames asked for`, { file: video });
    const c: Case = {
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
    lines.push(JSON.stringify(c));
    progress.done(caseId);
  }
  progress.finish();
  await writeFileAtomic(file, `${lines.join('\n')}\n`);
  return { cases: lines.length, file, keyframesDir };
}
