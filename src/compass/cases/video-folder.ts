/**
 * What a videos folder (`<model>/<case_id>__<prompt_mode>.mp4`) holds, read before a run: the
 * prompt modes it has any video of (a mode wholly absent is not scored as all-zero unasked, issue
 * 57 item 2), and, for a video that is missing, the file beside it that was most likely meant
 * (`mine-1__minimal.mp4` for case `mine-01`).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { nearest } from '../../nearest.js';
import type { PromptMode } from './cases.js';

function videoNames(dir: string): string[] {
  try {
    if (!statSync(dir).isDirectory()) return [];
    return readdirSync(dir).filter((f) => /\.mp4$/i.test(f) && !f.startsWith('.'));
  } catch {
    return [];
  }
}

/**
 * The modes of `modes` with at least one `*__<mode>.mp4` in a folder of `models` (in `modes`'
 * order). A folder that does not exist holds none (checkVideosFolder names it).
 */
export function modesWithVideos(
  videos: string,
  models: readonly string[],
  modes: readonly PromptMode[],
): PromptMode[] {
  const names = models.flatMap((m) => videoNames(resolve(videos, m)));
  return modes.filter((mode) => names.some((n) => n.endsWith(`__${mode}.mp4`)));
}

/**
 * The video file in a missing video's folder whose name is nearest to the missing one's (within a
 * third of its case id in edits, the same prompt mode), or undefined. Files that are themselves
 * expected (`expected`) are not offered.
 */
export function likelyIntended(
  missing: string,
  expected: ReadonlySet<string> = new Set(),
): string | undefined {
  const dir = dirname(missing);
  if (!existsSync(dir)) return undefined;
  const want = basename(missing);
  const suffix = want.slice(want.lastIndexOf('__'));
  const candidates = videoNames(dir).filter((f) => f.endsWith(suffix) && !expected.has(resolve(dir, f)));
  const caseOf = (f: string) => f.slice(0, f.length - suffix.length);
  const meant = nearest(
    caseOf(want),
    candidates.map((f) => caseOf(f)),
  );
  return meant === undefined ? undefined : resolve(dir, `${meant}${suffix}`);
}
