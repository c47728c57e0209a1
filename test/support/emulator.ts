import { type EmulatorOptions, startEmulator } from '../../src/dev/emulator/server.js';
import { JudgeCache } from '../../src/judge/cache.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend, type OpenAiOptions } from '../../src/judge/openai.js';

/** A real emulator on 127.0.0.1 and a real client pointed at it, with fast retry timing for tests. */
export async function emulatorJudge(
  emu: EmulatorOptions = {},
  client: Partial<OpenAiOptions> = {},
  cachePath?: string,
) {
  const e = await startEmulator(emu);
  const backend = new OpenAiBackend({
    model: 'kfbench-emulator',
    baseUrls: [e.url],
    timeoutMs: 1500,
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
