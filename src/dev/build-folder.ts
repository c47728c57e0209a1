/**
 * A generated folder (a mini set) that is built once and then reused: a stamp file records the
 * builder's version when the build completed; a partial marker shows an interrupted build. The
 * builder only ever clears a folder it made itself or an empty one.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic-write.js';

export interface BuildFolder {
  out: string;
  /** e.g. `.mini-hero` → `.mini-hero.json` (stamp) and `.mini-hero.partial` (marker). */
  name: string;
  version: string;
  /** What is built, for the marker and the refusal message (e.g. "a mini HeroFrame set"). */
  what: string;
}

const stampOf = (b: BuildFolder) => join(b.out, `${b.name}.json`);
/** The stamp: the builder's version, and what the builder adds. */
const Stamp = z.looseObject({ version: z.string() });
const partialOf = (b: BuildFolder) => join(b.out, `${b.name}.partial`);

/** True when a complete build of this version is there already. */
export async function isBuilt(b: BuildFolder): Promise<boolean> {
  const stamp = stampOf(b);
  if (!existsSync(stamp)) return false;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(stamp, 'utf8'));
  } catch {
    return false; // a damaged stamp: not built (the folder is ours, so it is built again)
  }
  const s = Stamp.safeParse(json);
  return s.success && s.data.version === b.version;
}

/** Clear the folder (only if it is ours or empty) and mark a build in progress. */
export async function startBuild(b: BuildFolder): Promise<void> {
  if (
    existsSync(b.out) &&
    readdirSync(b.out).length > 0 &&
    !existsSync(partialOf(b)) &&
    !existsSync(stampOf(b))
  ) {
    throw new BadInputError(`exists, is not empty and is not ${b.what}: choose a new or empty folder`, {
      file: b.out,
    });
  }
  await rm(b.out, { recursive: true, force: true });
  await mkdir(b.out, { recursive: true });
  await writeFileAtomic(partialOf(b), `${b.what} is being built here\n`);
}

/** Stamp the build complete. */
export async function finishBuild(b: BuildFolder, extra: Record<string, unknown> = {}): Promise<void> {
  await writeFileAtomic(stampOf(b), `${JSON.stringify({ version: b.version, ...extra })}\n`);
  await rm(partialOf(b), { force: true });
}
