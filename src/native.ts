/**
 * The Node lines kfbench supports, and loading a native module (a compiled add-on or a built-in
 * that older lines lack) so that a missing or broken one is one line naming it, not a stack.
 * Imports nothing heavy: `cli/bin.ts` checks the line with it before loading anything else.
 */
import { BackendError, messageOf } from './errors.js';

/** The lowest release of each supported Node line; package.json "engines" says the same (a test checks). */
const SUPPORTED_NODE_LINES = ['22.15.0', '24.0.0'] as const;

/** The supported lines as a semver range, as in package.json "engines". */
export const SUPPORTED_NODE_RANGE = SUPPORTED_NODE_LINES.map((v) => `^${v}`).join(' || ');

const parts = (v: string): number[] => v.replace(/^v/, '').split('.').map(Number);

/** Whether a Node version (`process.versions.node`, e.g. `22.15.0`) is on a supported line. */
export function isSupportedNode(version: string): boolean {
  const [major, minor, patch] = parts(version);
  return SUPPORTED_NODE_LINES.some((line) => {
    const [lMajor, lMinor, lPatch] = parts(line);
    if (major !== lMajor) return false;
    if (minor !== lMinor) return (minor ?? 0) > (lMinor ?? 0);
    return (patch ?? 0) >= (lPatch ?? 0);
  });
}

/** How to get a supported line, said with the refusal. */
const NODE_INSTALL_HINT =
  "install one with a version manager, e.g. `nvm install 24 && nvm use 24` (or fnm's same commands), or your system's Node 22 or 24 package; `node --version` shows the line in use";

/** The one line said when this Node line is not supported. */
export function unsupportedNodeMessage(version: string): string {
  return `Node ${version} is not supported: kfbench runs on Node ${SUPPORTED_NODE_RANGE} (${NODE_INSTALL_HINT})`;
}

/**
 * Loads a native module; a failure (no build for this platform or Node line, a missing binary,
 * a built-in this line lacks) becomes one backend error (exit 4) naming the module, the Node
 * version and the supported lines, with the first line of the loader's own message.
 */
export function loadNative<T>(name: string, load: () => T): T {
  try {
    return load();
  } catch (e) {
    const first = messageOf(e)
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0);
    throw new BackendError(
      `cannot load the native module ${name} on Node ${process.versions.node} (kfbench supports Node ${SUPPORTED_NODE_RANGE}): ${first ?? 'no message'}`,
      { cause: e },
    );
  }
}
