#!/usr/bin/env node
/**
 * The kfbench command line: check the Node line, parse, dispatch, and map errors to exit codes —
 * nothing else. 2 usage, 3 bad input, 4 backend or environment failure (a full disk, a folder not
 * writable), 5 partly done.
 */
import * as nodeModule from 'node:module';
import { EXIT_CODES, isKfbenchError, messageOf } from '../errors.js';
import { isSupportedNode, unsupportedNodeMessage } from '../native.js';
import { environmentError } from '../store/fs-errors.js';
import { cliEnv } from './env.js';

async function main(argv: string[]): Promise<number> {
  if (!isSupportedNode(process.versions.node)) {
    process.stderr.write(`kfbench: ${unsupportedNodeMessage(process.versions.node)}\n`);
    return EXIT_CODES.BACKEND;
  }
  // V8's code cache for the modules loaded below (Node's own, in its default folder under the temp
  // folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a start costs 0.34 instead of 0.39 CPU-s
  // here (`--version` × 10), which counts where a script or the test suite runs kfbench hundreds of
  // times. Looked up, not imported by name: a line without it (Node 20) must still reach the
  // one-line refusal above.
  nodeModule.enableCompileCache?.();
  // loaded only now, so that a native module that cannot load is one line below, not a stack
  let commanderError: typeof import('commander').CommanderError | undefined;
  let jsonFailure: typeof import('./output.js').printJsonFailure | undefined;
  let afterRun: (() => void) | undefined;
  try {
    const [{ CommanderError }, { buildProgram }, { printJsonFailure, flushAfterRun }] = await Promise.all([
      import('commander'),
      import('./program.js'),
      import('./output.js'),
    ]);
    commanderError = CommanderError;
    jsonFailure = printJsonFailure;
    afterRun = flushAfterRun;
    // only the module of the command named is loaded (issue 58 item 6)
    await (await buildProgram(undefined, argv.slice(2))).parseAsync(argv);
    flushAfterRun();
    return Number(process.exitCode ?? 0);
  } catch (e) {
    if (commanderError && e instanceof commanderError) {
      // commander already printed its one-line message
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0)
        return 0;
      return EXIT_CODES.USAGE;
    }
    // a file-system failure no library code named (a full disk, a read-only folder): exit 4 with its path
    const path = e instanceof Error && 'path' in e && typeof e.path === 'string' ? e.path : undefined;
    const env = path ? environmentError(e, path, 'failed') : e;
    if (isKfbenchError(env)) {
      if (env.code === 'PARTIAL') afterRun?.();
      process.stderr.write(`kfbench: ${env.message}\n`);
      jsonFailure?.(argv, { ...env, message: env.message, code: env.code, exitCode: env.exitCode });
      return env.exitCode;
    }
    process.stderr.write(`kfbench: internal error: ${messageOf(e)}\n`);
    if (cliEnv().debug) process.stderr.write(`${e instanceof Error ? (e.stack ?? '') : ''}\n`);
    return EXIT_CODES.INTERNAL;
  }
}

// a reader that stops early (`kfbench cache export … | head`): stop writing, quietly
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`kfbench: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
