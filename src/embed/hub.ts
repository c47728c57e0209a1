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
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
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
import { type OnProgress, phaseReporter } from '../progress.js';
import { readTextFile } from '../store/limits.js';

/** ONNX variants as onnx-community lays them out (transformers.js' `dtype` names in brackets). */
export const HUB_VARIANTS = {
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  q8: 'onnx/model_quantized.onnx',
} as const;
export type HubVariant = keyof typeof HUB_VARIANTS;
export const HUB_VARIANT_NAMES = Object.keys(HUB_VARIANTS) as HubVariant[];

export interface HubModelRef {
  repo: string;
  revision: string;
}

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

const REPO = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
const COMMIT = /^[0-9a-f]{40}$/;

/** `ORG/REPO[@REVISION]` → its parts (revision `main` by default). */
export function parseHubRef(s: string): HubModelRef {
  const at = s.indexOf('@');
  const repo = at < 0 ? s : s.slice(0, at);
  const revision = at < 0 ? 'main' : s.slice(at + 1);
  if (!REPO.test(repo) || repo.includes('..') || !/^[\w./-]+$/.test(revision) || revision.includes('..'))
    throw new UsageError(`--embedder hf:ORG/REPO[@REVISION], got "hf:${s}"`);
  return { repo, revision };
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
}

/** The hub's settings from the environment (the names huggingface_hub reads). */
export function hubSettings(env: NodeJS.ProcessEnv = process.env) {
  return {
    endpoint: (env.HF_ENDPOINT || HUB_URL).replace(/\/+$/, ''),
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

/** The snapshot of `ref` in the cache with every file, or undefined. */
function cachedSnapshot(storage: string, ref: HubModelRef, files: string[]): string | undefined {
  let commit = COMMIT.test(ref.revision) ? ref.revision : undefined;
  const refFile = join(storage, 'refs', ref.revision);
  if (!commit && existsSync(refFile)) commit = readTextFile(refFile, { max: 1024 }).trim();
  if (!commit || !COMMIT.test(commit)) return undefined;
  return files.every((f) => existsSync(join(storage, 'snapshots', commit, f))) ? commit : undefined;
}

function hubError(e: unknown, ref: HubModelRef, endpoint: string, token: string | undefined): BackendError {
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
  if (e instanceof BackendError) return e;
  const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : '';
  return new BackendError(
    `hf:${ref.repo}: cannot fetch from ${endpoint}: ${messageOf(e).split('\n')[0]}${cause}; with the model in the cache, HF_HUB_OFFLINE=1 makes no request`,
  );
}

/** The git blob id of a file's bytes (the hub's `oid` of a file not in LFS). */
function gitBlobHasher(size: number) {
  return createHash('sha1').update(`blob ${size}\0`);
}

async function fetchBlob(o: {
  repo: string;
  commit: string;
  path: string;
  size: number;
  /** sha256 (LFS) or git sha1 (not LFS). */
  hash: { kind: 'sha256' | 'git-sha1'; hex: string };
  blob: string;
  endpoint: string;
  token: string | undefined;
  onProgress: OnProgress | undefined;
}): Promise<void> {
  const file = await downloadFile({
    repo: { type: 'model', name: o.repo },
    path: o.path,
    revision: o.commit,
    hubUrl: o.endpoint,
    xet: false,
    ...(o.token ? { accessToken: o.token } : {}),
  });
  if (!file) throw new BackendError(`hf:${o.repo}: no file ${o.path} at commit ${o.commit}`);
  const MiB = 1 << 20;
  // the model file (and anything of a MiB or more) is shown; the small JSON files are not
  const shown = o.path.endsWith('.onnx') || o.size >= MiB;
  const phase = phaseReporter(shown ? o.onProgress : undefined, `download ${o.path}`, 'MiB');
  const total = Math.max(1, Math.ceil(o.size / MiB));
  phase.start(total, `${o.repo}, ${o.size >= MiB ? `${(o.size / MiB).toFixed(1)} MiB` : `${o.size} bytes`}`);
  const incomplete = `${o.blob}.incomplete`;
  await mkdir(dirname(o.blob), { recursive: true });
  const hasher = o.hash.kind === 'sha256' ? createHash('sha256') : gitBlobHasher(o.size);
  const out = createWriteStream(incomplete);
  let got = 0;
  let reported = 0;
  try {
    const reader = file.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      got += value.byteLength;
      hasher.update(value);
      if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
      for (; reported < Math.min(total - 1, Math.floor(got / MiB)); reported++) phase.done(`${reported + 1}`);
    }
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
    const hex = hasher.digest('hex');
    if (got !== o.size || hex !== o.hash.hex)
      throw new BackendError(
        `hf:${o.repo}: ${o.path} came incomplete or altered (${got} of ${o.size} bytes, ${o.hash.kind} ${hex.slice(0, 12)}… where the hub says ${o.hash.hex.slice(0, 12)}…): deleted, not used; run again to fetch it anew`,
      );
    phase.done(`${total}`);
    await rename(incomplete, o.blob);
  } catch (e) {
    out.destroy();
    await rm(incomplete, { force: true });
    throw e;
  } finally {
    phase.finish();
  }
}

/** Link `snapshots/<commit>/<path>` to its blob, relatively (as huggingface_hub does). */
async function linkSnapshot(storage: string, commit: string, path: string, blob: string): Promise<void> {
  const pointer = join(storage, 'snapshots', commit, path);
  await mkdir(dirname(pointer), { recursive: true });
  await unlink(pointer).catch(() => undefined);
  await symlink(relative(dirname(pointer), blob), pointer);
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
  const cached = cachedSnapshot(storage, ref, files);
  if (cached) return result(cached, false);
  if (s.offline)
    throw new BackendError(
      `hf:${ref.repo}@${ref.revision} (${variant}) is not in the cache ${s.cacheDir} and HF_HUB_OFFLINE is set: fetch it once online (run the same command without HF_HUB_OFFLINE, or \`hf download ${ref.repo} config.json preprocessor_config.json ${HUB_VARIANTS[variant]}\`), or choose --embedder builtin knowingly (its numbers are not the paper's)`,
    );
  if (s.token && !s.token.startsWith('hf_'))
    throw new UsageError(
      'HF_TOKEN is not a hub access token (they start with hf_): make one at huggingface.co/settings/tokens',
    );
  const repo = { type: 'model' as const, name: ref.repo };
  const auth = s.token ? { accessToken: s.token } : {};
  try {
    const commit = COMMIT.test(ref.revision)
      ? ref.revision
      : (
          await modelInfo({
            name: ref.repo,
            revision: ref.revision,
            hubUrl: s.endpoint,
            additionalFields: ['sha'],
            ...auth,
          })
        ).sha;
    if (typeof commit !== 'string' || !COMMIT.test(commit))
      throw new BackendError(`hf:${ref.repo}: the hub gave no commit for revision ${ref.revision}`);
    const infos = await pathsInfo({ repo, paths: files, revision: commit, hubUrl: s.endpoint, ...auth });
    for (const path of files) {
      const info = infos.find((i) => i.path === path);
      if (info?.type !== 'file')
        throw new BackendError(
          `hf:${ref.repo}@${ref.revision}: the repository has no ${path}${path.startsWith('onnx/') ? ` (variant ${variant}; try another --variant)` : ''}`,
        );
      const hash = info.lfs
        ? { kind: 'sha256' as const, hex: info.lfs.oid }
        : { kind: 'git-sha1' as const, hex: info.oid ?? '' };
      const size = info.lfs?.size ?? info.size;
      const blob = join(storage, 'blobs', hash.hex);
      if (!existsSync(blob))
        await fetchBlob({
          repo: ref.repo,
          commit,
          path,
          size,
          hash,
          blob,
          endpoint: s.endpoint,
          token: s.token,
          onProgress: o.onProgress,
        });
      await linkSnapshot(storage, commit, path, blob);
    }
    if (ref.revision !== commit) {
      await mkdir(dirname(join(storage, 'refs', ref.revision)), { recursive: true });
      await writeFile(join(storage, 'refs', ref.revision), commit);
    }
    return result(commit, true);
  } catch (e) {
    throw hubError(e, ref, s.endpoint, s.token);
  }
}
