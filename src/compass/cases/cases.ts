/**
 * Compass cases (`cases.jsonl`, SPEC §3.1), validated line by line: the shape by zod (at least one
 * keyframe), then the rules a shape cannot say (targets inside the duration and increasing, shots
 * from 0 in order, images that exist, ids safe as path parts). Every error names file and line.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { BadInputError, UsageError } from '../../errors.js';
import { loadImage } from '../../media/image.js';
import { readJsonFile, readJsonl } from '../../store/jsonl.js';

/** Safe as a file-name part: letters, digits, `.`, `_`, `-`; not starting with a dot. */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/**
 * The published set's keyframe counts (seed 001, §1: "keyframe counts are 3, 6, 9, or 12"): they
 * describe the published set, not a rule for users' own cases, which may have any count ≥ 1;
 * `compass validate` warns about a case outside them (docs/compass.md, "Keyframe counts").
 */
export const PUBLISHED_KEYFRAME_COUNTS = [3, 6, 9, 12] as const;

/** Whether a case's keyframe count is one of the published set's four densities. */
function isPublishedKeyframeCount(n: number): boolean {
  return PUBLISHED_KEYFRAME_COUNTS.some((k) => k === n);
}
export const PROMPT_MODES = ['minimal', 'segment_specific'] as const;
export type PromptMode = (typeof PROMPT_MODES)[number];
export const STRUCTURES = ['multi_shot', 'one_take'] as const;
export type Structure = (typeof STRUCTURES)[number];

const id = z
  .string()
  .regex(
    SAFE_ID,
    'must start with a letter or digit and hold only letters, digits, ".", "_" or "-", at most 128 (safe as a file name)',
  );

export const Keyframe = z.looseObject({
  kf_id: id,
  image: z.string().min(1),
  t_target_s: z.number().nonnegative().optional(),
  shot_index: z.number().int().nonnegative().optional(),
  shot_position: z.enum(['first', 'last', 'representative']).optional(),
});

export const Case = z.looseObject({
  case_id: id,
  domain: z.enum(['daily', 'product', 'cinematic']),
  structure: z.enum(STRUCTURES),
  duration_s: z.number().positive(),
  keyframes: z.array(Keyframe).min(1),
  prompts: z.looseObject({ minimal: z.string(), segment_specific: z.string() }),
  story_summary: z.string(),
  audio: z.looseObject({ requested: z.boolean() }).optional(),
  conditioning: z.enum(['image_list', 'storyboard_grid']),
});
export type Case = z.output<typeof Case>;
export type Keyframe = z.output<typeof Keyframe>;

/** A validated case with every keyframe image resolved to an absolute path. */
export interface LoadedCase extends Case {
  /** Where the case came from (for messages). */
  source: { file: string; line?: number };
}

/** The rules beyond the shape; the first broken one is thrown naming `file:line` and the case. */
function checkCase(c: Case, file: string, line?: number): LoadedCase {
  const where = { file, ...(line !== undefined ? { line } : {}) };
  const fail = (msg: string) => new BadInputError(`case ${c.case_id}: ${msg}`, where);
  const seen = new Set<string>();
  for (const k of c.keyframes) {
    if (seen.has(k.kf_id)) throw fail(`keyframe id ${k.kf_id} appears twice`);
    seen.add(k.kf_id);
  }
  if (c.structure === 'one_take') {
    let prev = -1;
    for (const k of c.keyframes) {
      if (k.t_target_s === undefined) throw fail(`one-take keyframe ${k.kf_id} has no t_target_s`);
      if (k.t_target_s > c.duration_s)
        throw fail(`keyframe ${k.kf_id}: t_target_s ${k.t_target_s} is past duration_s ${c.duration_s}`);
      if (k.t_target_s <= prev)
        throw fail(`keyframes out of order: ${k.kf_id} at ${k.t_target_s} s does not come after ${prev} s`);
      prev = k.t_target_s;
    }
  } else {
    let prevShot = -1;
    let prevPos = '';
    for (const k of c.keyframes) {
      if (k.shot_index === undefined) throw fail(`multi-shot keyframe ${k.kf_id} has no shot_index`);
      if (k.shot_index < prevShot)
        throw fail(`keyframes out of order: ${k.kf_id} is in shot ${k.shot_index} after shot ${prevShot}`);
      if (k.shot_index > prevShot + 1)
        throw fail(
          `keyframe ${k.kf_id}: shot_index ${k.shot_index} skips shot ${prevShot + 1} (shots count from 0)`,
        );
      const pos = k.shot_position ?? 'representative';
      if (k.shot_index === prevShot && (prevPos === 'last' || pos === 'first'))
        throw fail(
          `keyframes out of order: ${k.kf_id} (${pos}) after a ${prevPos} keyframe of shot ${k.shot_index}`,
        );
      prevShot = k.shot_index;
      prevPos = pos;
    }
  }
  const base = dirname(resolve(file));
  const keyframes = c.keyframes.map((k) => {
    const image = isAbsolute(k.image) ? k.image : resolve(base, k.image);
    if (!existsSync(image) || !statSync(image).isFile())
      throw fail(`keyframe ${k.kf_id}: image ${k.image} does not exist (looked for ${image})`);
    return { ...k, image };
  });
  return { ...c, keyframes, source: where };
}

/** Every case of a `cases.jsonl` (ids unique), validated line by line. */
export async function loadCases(file: string): Promise<LoadedCase[]> {
  if (!existsSync(file)) throw new BadInputError('no such file', { file });
  const out: LoadedCase[] = [];
  const ids = new Map<string, number>();
  for await (const l of readJsonl(file, Case)) {
    const prev = ids.get(l.value.case_id);
    if (prev !== undefined)
      throw new BadInputError(`case_id ${l.value.case_id} already used on line ${prev}`, {
        file,
        line: l.line,
      });
    ids.set(l.value.case_id, l.line);
    out.push(checkCase(l.value, file, l.line));
  }
  if (out.length === 0) throw new BadInputError('has no cases', { file });
  return out;
}

/**
 * Decode every keyframe image of the cases (`compass validate`): a path that names a file which is
 * not an image (`/etc/passwd`, the cases file itself) is refused here, naming the case and the
 * keyframe, instead of being blamed later on a model's video.
 */
async function checkKeyframeImages(cases: readonly LoadedCase[]): Promise<void> {
  for (const c of cases)
    for (const k of c.keyframes)
      try {
        await loadImage(k.image);
      } catch (e) {
        if (!(e instanceof BadInputError)) throw e;
        const why = e.message.startsWith(`${k.image}: `) ? e.message.slice(k.image.length + 2) : e.message;
        throw new BadInputError(`case ${c.case_id}: keyframe ${k.kf_id}: image ${k.image} is ${why}`, {
          ...c.source,
          cause: e,
        });
      }
}

/** One case: from a single-case JSON file, or by id from a `cases.jsonl`. */
export async function loadOneCase(opts: {
  caseFile?: string;
  casesFile?: string;
  caseId?: string;
}): Promise<LoadedCase> {
  if (opts.caseFile) return checkCase(await readJsonFile(opts.caseFile, Case), opts.caseFile);
  if (!opts.casesFile) throw new UsageError('give --case FILE, or --cases FILE with --case-id ID');
  const all = await loadCases(opts.casesFile);
  if (!opts.caseId) {
    if (all.length === 1) return all[0]!;
    throw new BadInputError(`has ${all.length} cases: name one with --case-id`, { file: opts.casesFile });
  }
  const c = all.find((x) => x.case_id === opts.caseId);
  if (!c) throw new BadInputError(`no case with case_id ${opts.caseId}`, { file: opts.casesFile });
  return c;
}

/** Where a model's output for a case and prompt mode lives (SPEC §3.1). */
export function videoPath(videosDir: string, model: string, caseId: string, mode: PromptMode): string {
  return resolve(videosDir, model, `${caseId}__${mode}.mp4`);
}

/** What `compass validate` reports of a valid case set: counts by structure, keyframe count and domain. */
export interface CaseStats {
  cases: number;
  keyframes: number;
  by_structure: Record<string, number>;
  by_keyframes: Record<string, number>;
  by_domain: Record<string, number>;
  /** Cases whose keyframe count is not one of the published set's 3, 6, 9, 12 (accepted; warned about). */
  outside_published_counts: { case_id: string; keyframes: number }[];
}

export function caseStats(cases: readonly LoadedCase[]): CaseStats {
  const count = (f: (c: LoadedCase) => string) =>
    Object.fromEntries(
      [...new Set(cases.map(f))].sort().map((k) => [k, cases.filter((c) => f(c) === k).length]),
    );
  return {
    cases: cases.length,
    keyframes: cases.reduce((s, c) => s + c.keyframes.length, 0),
    by_structure: count((c) => c.structure),
    by_keyframes: count((c) => String(c.keyframes.length)),
    by_domain: count((c) => c.domain),
    outside_published_counts: cases
      .filter((c) => !isPublishedKeyframeCount(c.keyframes.length))
      .map((c) => ({ case_id: c.case_id, keyframes: c.keyframes.length })),
  };
}

/** `compass validate` as one call: every line of `file` checked, every keyframe image decoded, the cases counted. */
export async function validateCasesFile(file: string): Promise<CaseStats> {
  const cases = await loadCases(file);
  await checkKeyframeImages(cases);
  return caseStats(cases);
}
