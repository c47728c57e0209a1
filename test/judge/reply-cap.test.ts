/**
 * Judge replies are capped (issue 31): a reply longer than `max_reply_bytes` (1 MiB by default)
 * is asked once more and then recorded as unresolved with that reason, keeping only its first KiB
 * (the cache and the result rows stay small); a JSON Lines writer refuses a row its readers would
 * refuse; a judge config with an unknown key is an error naming the key it likely meant. Real HTTP
 * against the emulator, a real SQLite cache, real files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadInputError } from '../../src/errors.js';
import { JudgeCache } from '../../src/judge/cache.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { readJudgeConfig, resolveJudgeSettings } from '../../src/judge/precedence.js';
import { writeJsonl } from '../../src/store/jsonl.js';
import { MAX_LINE_BYTES } from '../../src/store/limits.js';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { imagePool, question } from '../support/judge-questions.js';
import { media, tempDir } from '../support/paths.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('the reply cap', () => {
  it('a 2 MiB reply, twice: unresolved with the reason, its first KiB kept, the cache small', async () => {
    const emu = await startEmulator({ faults: { rate: 1, kinds: ['long'], longBytes: 2 << 20 } });
    const dir = tempDir('kfbench-reply-cap-');
    const cache = new JudgeCache(join(dir, 'cache.sqlite'));
    const judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url] }), { cache });
    closers.push(async () => {
      await judge.close();
      cache.close();
      await emu.close();
    });
    const v = await judge.ask(question(0, await imagePool()));
    expect(v.answer).toBeUndefined();
    expect(v.unresolved).toBe(
      `reply of ${2 << 20} bytes is longer than the ${1 << 20}-byte limit (max_reply_bytes)`,
    );
    expect(v.raw).toHaveLength(2);
    for (const r of v.raw) expect(r.length).toBeLessThan(2048);
    expect(judge.stats.unresolved).toBe(1);
    // cached as it was recorded: the same small answer
    const again = await judge.ask(question(0, await imagePool()));
    expect(again.cached).toBe(true);
    expect(again.unresolved).toBe(v.unresolved);
  });

  it('configurable: max_reply_bytes in the config', async () => {
    const dir = tempDir('kfbench-reply-cap-');
    const cfg = join(dir, 'judge.json');
    writeFileSync(cfg, JSON.stringify({ judge: 'openai:m@http://127.0.0.1:9/v1', max_reply_bytes: 4096 }));
    expect(resolveJudgeSettings({ config: cfg }, {}).maxReplyBytes).toBe(4096);
    const emu = await startEmulator({ faults: { rate: 1, kinds: ['long'], longBytes: 8192 } });
    const judge = new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [emu.url] }), {
      maxReplyBytes: 4096,
    });
    closers.push(async () => {
      await judge.close();
      await emu.close();
    });
    const v = await judge.ask(question(1, await imagePool()));
    expect(v.unresolved).toMatch(/^reply of 8192 bytes is longer than the 4096-byte limit/);
  });
});

describe('no writer writes a line its readers refuse', () => {
  it('a row longer than the line limit: an error naming the file, and no file', async () => {
    const file = join(tempDir('kfbench-long-row-'), 'rows.jsonl');
    const e = await writeJsonl(file, z.looseObject({}), [
      { ok: 1 },
      { text: 'x'.repeat(MAX_LINE_BYTES + 1) },
    ]).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(
      new RegExp(`^${file}: a row of \\d+ MiB is longer than the 64 MiB line limit`),
    );
    const { existsSync } = await import('node:fs');
    expect(existsSync(file)).toBe(false);
  });
});

describe('judge config keys', () => {
  it.each([
    ['concurency', 'concurrency'],
    ['api-key', 'api_key'],
    ['Max_Tokens', 'max_tokens'],
  ])('an unknown key %s is bad input suggesting %s', (key, near) => {
    const cfg = join(tempDir('kfbench-config-'), 'judge.json');
    writeFileSync(cfg, JSON.stringify({ judge: 'openai:m@http://127.0.0.1:9/v1', [key]: 4 }));
    const e = (() => {
      try {
        readJudgeConfig(cfg);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(BadInputError);
    expect((e as Error).message).toContain(`${cfg}: unknown key "${key}" (did you mean "${near}"?)`);
  });

  it('through the CLI: exit 3 naming the file and the key', async () => {
    const cfg = join(tempDir('kfbench-config-'), 'judge.json');
    writeFileSync(cfg, JSON.stringify({ judge: 'openai:m@http://127.0.0.1:9/v1', concurency: 2 }));
    const r = await runCli(['judge', 'pair', media('base.png'), media('blur.png'), '--config', cfg]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`unknown key "concurency" (did you mean "concurrency"?)`);
  });
});
