/**
 * `withJudge`: the judge opened from its settings is closed when the call returns and when it
 * throws — against the real emulator on 127.0.0.1, with a real cache file.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveJudgeSettings } from '../../src/judge/precedence.js';
import type { OpenedJudge } from '../../src/judge/registry.js';
import { withJudge } from '../../src/judge/with-judge.js';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import { imagePool, question } from '../support/judge-questions.js';
import { tempDir } from '../support/paths.js';

let emu: Awaited<ReturnType<typeof startEmulator>>;
beforeAll(async () => {
  emu = await startEmulator({});
});
afterAll(async () => {
  await emu.close();
});

const settings = (name: string) =>
  resolveJudgeSettings(
    { judge: `openai:kfbench-emulator@${emu.url}`, cache: join(tempDir(name), 'cache.sqlite') },
    {},
  );

describe('withJudge', () => {
  it('hands the opened judge to the call, returns its value and closes the judge', async () => {
    let seen: OpenedJudge | undefined;
    const images = await imagePool();
    const r = await withJudge(settings('with-judge-ok'), async (j) => {
      seen = j;
      await j.judge.ask(question(0, images));
      return j.judge.name;
    });
    expect(r).toBe('openai:kfbench-emulator');
    expect(emu.log).toHaveLength(1);
    // the cache was closed with the judge: it answers no more
    expect(() => seen!.cache!.stats()).toThrow();
  });

  it('closes the judge when the call throws, and rethrows the call’s own error', async () => {
    let seen: OpenedJudge | undefined;
    const images = await imagePool();
    const asked = withJudge(settings('with-judge-throws'), async (j) => {
      seen = j;
      await j.judge.ask(question(1, images));
      throw new Error('the call failed');
    });
    await expect(asked).rejects.toThrow('the call failed');
    expect(seen?.cache).toBeDefined();
    expect(() => seen!.cache!.stats()).toThrow();
  });
});
