/**
 * A hub model's name, `ORG/REPO[@REVISION]`: checked apart from hub.ts (the owner of the hub's
 * client) so that a spec is parsed without loading it.
 */
import { UsageError } from '../errors.js';

export interface HubModelRef {
  repo: string;
  revision: string;
}

const REPO = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/** `ORG/REPO[@REVISION]` → its parts (revision `main` by default). */
export function parseHubRef(s: string): HubModelRef {
  const at = s.indexOf('@');
  const repo = at < 0 ? s : s.slice(0, at);
  const revision = at < 0 ? 'main' : s.slice(at + 1);
  if (!REPO.test(repo) || repo.includes('..') || !/^[\w./-]+$/.test(revision) || revision.includes('..'))
    throw new UsageError(`--embedder must be hf:ORG/REPO[@REVISION], got "hf:${s}"`);
  return { repo, revision };
}
