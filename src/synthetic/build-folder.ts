/**
 * A generated folder (a mini set) that is built once and then reused: a stamp file records the
 * builder's version when the build completed; a partial marker shows an interrupted build. The
 * builder only ever clears a folder it made itself or an empty one.
 */
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { withDirLock } from '../store/dir-lock.js';

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

/** Refuse a folder that holds something other than this kind of build. */
function assertOursOrEmpty(b: BuildFolder): void {
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
}

/** Clear the folder (only if it is ours or empty) and mark a build in progress. */
export async function startBuild(b: BuildFolder): Promise<void> {
  assertOursOrEmpty(b);
  await rm(b.out, { recursive: true, force: true });
  await mkdir(b.out, { recursive: true });
  await writeFileAtomic(partialOf(b), `${b.what} is being built here\n`);
}

/** Stamp the build complete. */
export async function finishBuild(b: BuildFolder, extra: Record<string, unknown> = {}): Promise<void> {
  await writeFileAtomic(stampOf(b), `${JSON.stringify({ version: b.version, ...extra })}\n`);
  await rm(partialOf(b), { force: true });
}

/**
 * Fill `b.out` from the material cache `root` when one is given (the CLI takes it from
 * `KFBENCH_MATERIAL_CACHE`, src/cli/env.ts; this module reads no environment): the set is built
 * there once (`build(dir)`, under a lock, so parallel processes build it once between them) and
 * copied into `b.out`. The generated sets are deterministic and relocatable (no absolute paths),
 * so a copy equals a build. Returns false, doing nothing, when no cache is set.
 */
export async function copyFromMaterialCache(
  b: BuildFolder,
  build: (dir: string) => Promise<unknown>,
  root: string | undefined,
  onProgress?: OnProgress,
): Promise<boolean> {
  if (!root) return false;
  const dir = join(resolve(root), `${b.name.replace(/^\./, '')}-v${b.version}`);
  if (resolve(b.out) === dir) return false;
  assertOursOrEmpty(b); // before any build: a refused folder never waits for one
  const cached: BuildFolder = { ...b, out: dir };
  if (!(await isBuilt(cached))) {
    await mkdir(resolve(root), { recursive: true });
    // a lock another process holds is said at once (a progress note), not waited for in silence
    const wait = phaseReporter(onProgress, 'material cache lock', 'lock');
    let waited = false;
    await withDirLock(
      `${dir}.lock`,
      async () => {
        if (waited) wait.finish();
        if (!(await isBuilt(cached))) await build(dir);
      },
      {
        onWait: (message) => {
          waited = true;
          wait.start(1, message);
        },
      },
    );
  }
  await startBuild(b);
  await cp(dir, b.out, { recursive: true });
  await rm(partialOf(b), { force: true });
  return true;
}
