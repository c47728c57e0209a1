/** `kfbench dev …`: development tools. The VLM emulator is an emulator, not a model. */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import { FAULT_KINDS, startEmulator } from '../synthetic/emulator/server.js';
import { parseNumberFlag, printLines } from './output.js';

export function registerDev(program: Command): void {
  const dev = program.command('dev').description('development tools');
  dev
    .command('vlm-emulator')
    .description(
      'an OpenAI-compatible VLM emulator on 127.0.0.1 that answers from pixel statistics (for tests and the demo)',
    )
    .option('--port <n>', 'port (0 = any free one)', '8089')
    .option('--model <name>', 'model name it answers to', 'kfbench-emulator')
    .option('--latency-ms <ms>', 'fixed delay before each reply', '0')
    .option(
      '--position-bias <x>',
      'bonus of the first-shown image (listwise: falling linearly to the candidate)',
      '0.002',
    )
    .option('--fault-rate <p>', 'probability of a fault per request', '0')
    .option('--faults <kinds>', `comma-separated: ${FAULT_KINDS.join(',')}`, FAULT_KINDS.join(','))
    .option('--retry-after <s>', 'Retry-After of injected 429s', '1')
    .action(
      async (o: {
        port: string;
        model: string;
        latencyMs: string;
        positionBias: string;
        faultRate: string;
        faults: string;
        retryAfter: string;
      }) => {
        const kinds = o.faults
          .split(',')
          .filter(Boolean)
          .map((k) => {
            const kind = FAULT_KINDS.find((f) => f === k);
            if (kind === undefined)
              throw new UsageError(
                `unknown fault kind "${k}"${didYouMean(k, FAULT_KINDS)} (${FAULT_KINDS.join(', ')})`,
              );
            return kind;
          });
        const emu = await startEmulator({
          port: parseNumberFlag('--port', o.port, (n) => Number.isInteger(n) && n >= 0),
          model: o.model,
          latencyMs: parseNumberFlag('--latency-ms', o.latencyMs, (n) => n >= 0),
          positionBias: parseNumberFlag('--position-bias', o.positionBias),
          faults: {
            rate: parseNumberFlag('--fault-rate', o.faultRate, (n) => n >= 0 && n <= 1),
            kinds,
            retryAfterS: parseNumberFlag('--retry-after', o.retryAfter, (n) => n >= 0),
          },
        });
        // listen for the stop signal before saying where it is, so that a stop right after it is heard
        const stopped = new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        printLines([
          `VLM emulator (not a model) for "${o.model}" at ${emu.url}   e.g. --judge openai:${o.model}@${emu.url}`,
        ]);
        await stopped;
        await emu.close();
      },
    );
}
