import { JudgeCache } from '../../src/judge/cache.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend, type OpenAiOptions } from '../../src/judge/openai.js';
import { type EmulatorOptions, startEmulator } from '../../src/synthetic/emulator/server.js';

/**
 * A real emulator on 127.0.0.1 and a real client pointed at it, with fast retry back-off for tests.
 * The request timeout is generous: on a loaded machine an emulator reply (image statistics of ≈ 50
 * frames) can take seconds, and a spurious timeout would send the question twice and break every
 * test that counts requests. Tests of the timeout itself pass their own `timeoutMs`.
 */
export async function emulatorJudge(
  emu: EmulatorOptions = {},
  client: Partial<OpenAiOptions> = {},
  cachePath?: string,
) {
  const e = await startEmulator(emu);
  const backend = new OpenAiBackend({
    model: 'kfbench-emulator',
    baseUrls: [e.url],
    timeoutMs: 120_000,
    backoffBaseMs: 5,
    backoffCapMs: 100,
    ...client,
  });
  const cache = cachePath ? new JudgeCache(cachePath) : undefined;
  const judge = new Judge(backend, { cache });
  return {
    emu: e,
    judge,
    cache,
    backend,
    async close() {
      await judge.close();
      cache?.close();
      await e.close();
    },
  };
}
