/**
 * The only file that imports @huggingface/hub (the hub's official JavaScript client): fetches the
 * few files an image model needs from a model repository — `config.json`,
 * `preprocessor_config.json` and one ONNX variant under `onnx/` — into the hub's own cache layout
 * (`$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `~/.cache/huggingface/hub`: `models--ORG--REPO/`
 * with `blobs/`, `snapshots/<commit>/` and `refs/<revision>`), so a model fetched by Python's
 * `huggingface_hub` or `hf download` is reused and ours is reused by them.
 *
 * Cache first: when `refs/<revision>` (or the commit itself) names a snapshot holding every file,
 * no request is made — so a second run, and every worker thread, works offline. Otherwise the
 * client asks `HF_ENDPOINT` (a mirror; default the hub) with `HF_TOKEN` for the revision's commit
 * and the files' hashes, and streams each missing file to `blobs/<hash>.incomplete`, checking its
 * size and hash (sha256 for LFS files, the git blob sha1 otherwise) before it becomes the blob: a
 * truncated or altered download is deleted, never used. `HF_HUB_OFFLINE=1` makes no request at all.
 * Download progress goes out as progress events (phase `download PATH`, one item per MiB) for
 * the model file.
 */

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readlink, rename, rm, symlink, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  downloadFile,
  getHFHubCachePath,
  getRepoFolderName,
  HUB_URL,
  HubApiError,
  modelInfo,
  pathsInfo,
} from '@huggingface/hub';
import { BackendError, messageOf, UsageError } from '../errors.js';
import type { OnProgress } from '../progress.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { readTextFile } from '../store/limits.js';
import { blobMatches, checkedHash, fetchBlob, kindOfBlobName } from './hub-blob.js';
import { hubFetch, redactHubText, redactHubUrl } from './hub-fetch.js';
import type { HubModelRef } from './hub-ref.js';

/** ONNX variants as onnx-community lays them out (transformers.js' `dtype` names in brackets). */
const HUB_VARIANTS = {
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  q8: 'onnx/model_quantized.onnx',
} as const;
export type HubVariant = keyof typeof HUB_VARIANTS;
export const HUB_VARIANT_NAMES = Object.keys(HUB_VARIANTS) as HubVariant[];

export interface HubModelFiles {
  repo: string;
  revision: string;
  /** The commit the revision resolved to (the snapshot folder's name). */
  commit: string;
  variant: HubVariant;
  model: string;
  config: string;
  preprocessor: string;
  /** Whether anything was downloaded now (false: all from the cache). */
  downloaded: boolean;
}

const COMMIT = /^[0-9a-f]{40}$/;

function truthy(v: string | undefined): boolean {
  return v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
}

/** The hub's settings from the environment (the names huggingface_hub reads). */
function hubSettings(env: NodeJS.ProcessEnv = process.env) {
  const endpoint = (env.HF_ENDPOINT || HUB_URL).replace(/\/+$/, '');
  let protocol = '';
  try {
    protocol = new URL(endpoint).protocol;
  } catch {
    // named below
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new UsageError(`HF_ENDPOINT must be an http(s) URL, got "${redactHubUrl(endpoint)}"`);
  return {
    endpoint,
    token: env.HF_TOKEN || env.HUGGING_FACE_HUB_TOKEN || undefined,
    offline: truthy(env.HF_HUB_OFFLINE),
    cacheDir: getHFHubCachePath(),
  };
}

function storageFolder(cacheDir: string, repo: string): string {
  return join(cacheDir, getRepoFolderName({ type: 'model', name: repo }));
}

function filesOf(variant: HubVariant): string[] {
  return ['config.json', 'preprocessor_config.json', HUB_VARIANTS[variant]];
}

/** The commit of `ref` named in the cache (the revision itself, or `refs/<revision>`), if any. */
function cachedCommit(storage: string, ref: HubModelRef): string | undefined {
  let commit = COMMIT.test(ref.revision) ? ref.revision : undefined;
  const refFile = join(storage, 'refs', ref.revision);
  if (!commit && existsSync(refFile)) commit = readTextFile(refFile, { max: 1024 }).trim();
  return commit && COMMIT.test(commit) ? commit : undefined;
}

/**
 * Whether a snapshot's pointer leads to a blob of this cache whose content matches its name; a
 * pointer to a blob that does not is removed with the blob, so that it is fetched again.
 */
async function pointerSound(storage: string, pointer: string): Promise<boolean> {
  let target: string;
  try {
    target = resolve(dirname(pointer), await readlink(pointer));
  } catch {
    return existsSync(pointer); // a copied file (not a link): nothing names its hash
  }
  const blobs = join(storage, 'blobs');
  if (dirname(target) !== blobs || !kindOfBlobName(basename(target))) return existsSync(target);
  if (await blobMatches(target)) return true;
  await rm(target, { force: true });
  await unlink(pointer).catch(() => undefined);
  return false;
}

/** The snapshot of `ref` in the cache with every file whole, or why not. */
async function cachedSnapshot(
  storage: string,
  ref: HubModelRef,
  files: string[],
): Promise<{ commit?: string; refused: string[] }> {
  const commit = cachedCommit(storage, ref);
  if (!commit) return { refused: [] };
  const at = (f: string) => join(storage, 'snapshots', commit, f);
  if (!files.every((f) => existsSync(at(f)))) return { refused: [] };
  const refused: string[] = [];
  for (const f of files) if (!(await pointerSound(storage, at(f)))) refused.push(f);
  return refused.length ? { refused } : { commit, refused };
}

function hubError(e: unknown, ref: HubModelRef, endpoint0: string, token: string | undefined): BackendError {
  const endpoint = redactHubUrl(endpoint0);
  const page = `${endpoint}/${ref.repo}`;
  if (e instanceof HubApiError) {
    if (e.statusCode === 401 || e.statusCode === 403)
      return new BackendError(
        `hf:${ref.repo}: HTTP ${e.statusCode}, the model is gated or private: accept its terms at ${page} and ${token ? 'check that HF_TOKEN is a token with read access to it' : 'set HF_TOKEN to a read token of that account'}`,
      );
    if (e.statusCode === 404)
      return new BackendError(
        `hf:${ref.repo}@${ref.revision}: no such model, revision or file at ${endpoint} (HTTP 404; see ${page})`,
      );
    return new BackendError(`hf:${ref.repo}: the hub answered HTTP ${e.statusCode} (${endpoint})`);
  }
  if (e instanceof BackendError) return new BackendError(redactHubText(e.message));
  const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : '';
  return new BackendError(
    redactHubText(
      `hf:${ref.repo}: cannot fetch from ${endpoint}: ${messageOf(e).split('\n')[0]}${cause}; with the model in the cache, HF_HUB_OFFLINE=1 makes no request`,
    ),
  );
}

/**
 * Link `snapshots/<commit>/<path>` to its blob, relatively (as huggingface_hub does): made under a
 * name of its own and renamed over the pointer, so a process reading it meanwhile (another one
 * fetching the same model) never finds it missing.
 */
async function linkSnapshot(storage: string, commit: string, path: string, blob: string): Promise<void> {
  const pointer = join(storage, 'snapshots', commit, path);
  await mkdir(dirname(pointer), { recursive: true });
  const temp = `${pointer}.${process.pid}.${randomBytes(6).toString('hex')}.link`;
  await symlink(relative(dirname(pointer), blob), temp);
  try {
    await rename(temp, pointer);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw e;
  }
}

/**
 * The local paths of a hub model's config, preprocessor config and ONNX variant: from the cache
 * when it has them all (no request), else fetched (see the file's comment).
 */
export async function fetchHubModel(
  ref: HubModelRef,
  variant: HubVariant,
  o: { onProgress?: OnProgress | undefined } = {},
): Promise<HubModelFiles> {
  const s = hubSettings();
  const storage = storageFolder(s.cacheDir, ref.repo);
  const files = filesOf(variant);
  const result = (commit: string, downloaded: boolean): HubModelFiles => {
    const at = (f: string) => join(storage, 'snapshots', commit, f);
    return {
      ...ref,
      commit,
      variant,
      model: at(HUB_VARIANTS[variant]),
      config: at('config.json'),
      preprocessor: at('preprocessor_config.json'),
      downloaded,
    };
  };
  const cached = await cachedSnapshot(storage, ref, files);
  if (cached.commit) return result(cached.commit, false);
  const refused = cached.refused.length
    ? ` (the cached ${cached.refused.join(', ')} did not match ${cached.refused.length > 1 ? 'their hashes' : 'its hash'}: deleted)`
    : '';
  if (s.offline)
    throw new BackendError(
      `hf:${ref.repo}@${ref.revision} (${variant}) is not in the cache ${s.cacheDir}${refused} and HF_HUB_OFFLINE is set: fetch it once online (run the same command without HF_HUB_OFFLINE, or \`hf download ${ref.repo} config.json preprocessor_config.json ${HUB_VARIANTS[variant]}\`), or choose --embedder builtin knowingly (its numbers are not the paper's)`,
    );
  if (s.token && !s.token.startsWith('hf_'))
    throw new UsageError(
      'HF_TOKEN is not a hub access token (they start with hf_): make one at huggingface.co/settings/tokens',
    );
  try {
    const commit = await fetchFiles(ref, variant, storage, s, o.onProgress);
    return result(commit, true);
  } catch (e) {
    throw hubError(e, ref, s.endpoint, s.token);
  }
}

/** The revision's commit and its files, asked of the hub; missing or unsound blobs fetched. */
async function fetchFiles(
  ref: HubModelRef,
  variant: HubVariant,
  storage: string,
  s: ReturnType<typeof hubSettings>,
  onProgress: OnProgress | undefined,
): Promise<string> {
  const repo = { type: 'model' as const, name: ref.repo };
  const common = {
    hubUrl: s.endpoint,
    fetch: hubFetch(s.endpoint),
    ...(s.token ? { accessToken: s.token } : {}),
  };
  const files = filesOf(variant);
  const commit = COMMIT.test(ref.revision)
    ? ref.revision
    : (await modelInfo({ name: ref.repo, revision: ref.revision, additionalFields: ['sha'], ...common })).sha;
  if (typeof commit !== 'string' || !COMMIT.test(commit))
    throw new BackendError(`hf:${ref.repo}: the hub gave no commit for revision ${ref.revision}`);
  const infos = await pathsInfo({ repo, paths: files, revision: commit, ...common });
  if (!Array.isArray(infos))
    throw new BackendError(`hf:${ref.repo}: the hub's paths-info answer is not a list`);
  for (const path of files) {
    const info = infos.find((i) => i?.path === path);
    if (info?.type !== 'file')
      throw new BackendError(
        `hf:${ref.repo}@${ref.revision}: the repository has no ${path}${path.startsWith('onnx/') ? ` (variant ${variant}; try another --variant)` : ''}`,
      );
    const hash = info.lfs
      ? checkedHash(ref.repo, path, 'sha256', info.lfs.oid)
      : checkedHash(ref.repo, path, 'git-sha1', info.oid);
    const size = info.lfs?.size ?? info.size;
    if (!Number.isSafeInteger(size) || size < 0)
      throw new BackendError(
        `hf:${ref.repo}: the hub gave ${path} the size ${JSON.stringify(size)}: refused`,
      );
    const blob = join(storage, 'blobs', hash.hex);
    if (existsSync(blob) && !(await blobMatches(blob))) await rm(blob, { force: true });
    if (!existsSync(blob))
      await fetchBlob({
        repo: ref.repo,
        path,
        size,
        hash,
        blob,
        onProgress,
        open: async () => {
          const file = await downloadFile({ repo, path, revision: commit, xet: false, ...common });
          if (!file) throw new BackendError(`hf:${ref.repo}: no file ${path} at commit ${commit}`);
          return file.stream();
        },
      });
    await linkSnapshot(storage, commit, path, blob);
  }
  if (ref.revision !== commit) {
    await mkdir(dirname(join(storage, 'refs', ref.revision)), { recursive: true });
    await writeFileAtomic(join(storage, 'refs', ref.revision), commit);
  }
  return commit;
}
