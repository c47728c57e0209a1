/** `kfbench dev …`: development tools. The VLM emulator is an emulator, not a model. */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import { FAULT_KINDS } from '../synthetic/emulator/faults.js';
import { startEmulator } from '../synthetic/emulator/server.js';
import { addFlags, type FlagValues, flagSpecs } from './flags.js';
import { parseNumberFlag, printLines } from './output.js';

const EMULATOR_FLAG_SPECS = flagSpecs({
  port: { flags: '--port <n>', description: 'port (0 = any free one)', default: '8089' },
  model: { flags: '--model <name>', description: 'model name it answers to', default: 'kfbench-emulator' },
  latencyMs: { flags: '--latency-ms <ms>', description: 'fixed delay before each reply', default: '0' },
  positionBias: {
    flags: '--position-bias <x>',
    description: 'bonus of the first-shown image (listwise: falling linearly to the candidate)',
    default: '0.002',
  },
  faultRate: { flags: '--fault-rate <p>', description: 'probability of a fault per request', default: '0' },
  faults: {
    flags: '--faults <kinds>',
    description: `comma-separated: ${FAULT_KINDS.join(',')}`,
    default: FAULT_KINDS.join(','),
  },
  retryAfter: { flags: '--retry-after <s>', description: 'Retry-After of injected 429s', default: '1' },
});

export function registerDev(dev: Command): void {
  const cmd = dev
    .command('vlm-emulator')
    .description(
      'an OpenAI-compatible VLM emulator on 127.0.0.1 that answers from pixel statistics and loudness (for tests and the demo)',
    );
  addFlags(cmd, EMULATOR_FLAG_SPECS).action(async (o: FlagValues<typeof EMULATOR_FLAG_SPECS>) => {
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
  });
}
