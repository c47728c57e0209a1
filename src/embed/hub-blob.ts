/**
 * The blobs of the hub cache (`models--ORG--REPO/blobs/<hash>`), which are named for their
 * content's hash: sha256 (64 hex digits) for an LFS file, the git blob sha1 (40) otherwise.
 * - A hash from the hub is accepted only in that form, so a blob's path is always a plain name
 *   inside `blobs/` (a hub cannot make `../x` a path).
 * - A download streams into a temporary file of its own (`<hash>.<pid>.<random>.incomplete`,
 *   created exclusively), never more than the declared size; the file is then hashed from disk
 *   and renamed into place only when its size and hash are the declared ones. Two processes
 *   fetching the same blob at once each write their own file, and either rename leaves a whole,
 *   checked blob.
 * - A blob already in the cache is hashed again before it is used (`blobMatches`): one whose
 *   content no longer matches its name is refused (deleted, and fetched again when online).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { BackendError } from '../errors.js';
import { type OnProgress, phaseReporter } from '../progress.js';

export type HashKind = 'sha256' | 'git-sha1';
export interface BlobHash {
  kind: HashKind;
  hex: string;
}

const FORM: Record<HashKind, RegExp> = { sha256: /^[0-9a-f]{64}$/, 'git-sha1': /^[0-9a-f]{40}$/ };

/** A hub's hash as given, or a BackendError naming it when it is not of its kind's form. */
export function checkedHash(repo: string, path: string, kind: HashKind, hex: unknown): BlobHash {
  if (typeof hex !== 'string' || !FORM[kind].test(hex))
    throw new BackendError(
      `hf:${repo}: the hub gave ${path} the ${kind} hash ${JSON.stringify(String(hex).slice(0, 80))}, which is not ${kind === 'sha256' ? '64' : '40'} lowercase hex digits: refused, nothing written`,
    );
  return { kind, hex };
}

/** The kind of hash a blob's name is, or undefined when it is no blob name. */
export function kindOfBlobName(name: string): HashKind | undefined {
  return FORM.sha256.test(name) ? 'sha256' : FORM['git-sha1'].test(name) ? 'git-sha1' : undefined;
}

/** The hash (of `kind`) of a file's bytes as they are on disk. */
async function hashFile(file: string, kind: HashKind): Promise<{ hex: string; size: number }> {
  const { size } = await lstat(file);
  const h = kind === 'sha256' ? createHash('sha256') : createHash('sha1').update(`blob ${size}\0`);
  let got = 0;
  for await (const chunk of createReadStream(file)) {
    got += (chunk as Buffer).byteLength;
    h.update(chunk as Buffer);
  }
  if (got !== size) return { hex: '', size: got };
  return { hex: h.digest('hex'), size };
}

/** Whether `blob` is a regular file whose content is the hash its name says. */
export async function blobMatches(blob: string): Promise<boolean> {
  const kind = kindOfBlobName(basename(blob));
  if (!kind) return false;
  try {
    if (!(await lstat(blob)).isFile()) return false;
    return (await hashFile(blob, kind)).hex === basename(blob);
  } catch {
    return false;
  }
}

export interface FetchBlobOptions {
  repo: string;
  path: string;
  size: number;
  hash: BlobHash;
  blob: string;
  /** The file's bytes (the hub client's stream). */
  open: () => Promise<ReadableStream<Uint8Array>>;
  onProgress: OnProgress | undefined;
}

async function streamCapped(o: FetchBlobOptions, temp: string, tick: (got: number) => void): Promise<number> {
  const out = createWriteStream(temp, { flags: 'wx' });
  await new Promise<void>((res, rej) => out.once('open', () => res()).once('error', rej));
  const reader = (await o.open()).getReader();
  let got = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      got += value.byteLength;
      if (got > o.size) {
        await reader.cancel().catch(() => undefined);
        throw new BackendError(
          `hf:${o.repo}: ${o.path} is larger than the ${o.size} bytes the hub declared (more than ${o.size} bytes came): deleted, not used`,
        );
      }
      if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
      tick(got);
    }
  } finally {
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
  }
  return got;
}

/** Download one blob (see the file's comment); on any failure its temporary file is removed. */
export async function fetchBlob(o: FetchBlobOptions): Promise<void> {
  const MiB = 1 << 20;
  // the model file (and anything of a MiB or more) is shown; the small JSON files are not
  const shown = o.path.endsWith('.onnx') || o.size >= MiB;
  const phase = phaseReporter(shown ? o.onProgress : undefined, `download ${o.path}`, 'MiB');
  const total = Math.max(1, Math.ceil(o.size / MiB));
  phase.start(total, `${o.repo}, ${o.size >= MiB ? `${(o.size / MiB).toFixed(1)} MiB` : `${o.size} bytes`}`);
  await mkdir(dirname(o.blob), { recursive: true });
  const temp = `${o.blob}.${process.pid}.${randomBytes(6).toString('hex')}.incomplete`;
  let reported = 0;
  try {
    const got = await streamCapped(o, temp, (n) => {
      for (; reported < Math.min(total - 1, Math.floor(n / MiB)); reported++) phase.done(`${reported + 1}`);
    });
    const disk = await hashFile(temp, o.hash.kind);
    if (got !== o.size || disk.size !== o.size || disk.hex !== o.hash.hex)
      throw new BackendError(
        `hf:${o.repo}: ${o.path} came incomplete or altered (${disk.size} of ${o.size} bytes, ${o.hash.kind} ${disk.hex.slice(0, 12)}… where the hub says ${o.hash.hex.slice(0, 12)}…): deleted, not used; run again to fetch it anew`,
      );
    phase.done(`${total}`);
    await rename(temp, o.blob);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  } finally {
    phase.finish();
  }
}
