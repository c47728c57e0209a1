/** Judge URLs: credentials are refused where they are given (exit 2), and no message echoes a query string. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { checkJudgeUrl, redactUrl } from '../../src/judge/endpoints.js';
import { resolveJudgeSettings } from '../../src/judge/precedence.js';
import { parseJudgeSpec } from '../../src/judge/registry.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { media, tempDir } from '../support/paths.js';

let emu: Emulator;
let closedUrl: string;
beforeAll(async () => {
  emu = await startEmulator();
  const gone = await startEmulator();
  closedUrl = gone.url;
  await gone.close();
});
afterAll(async () => emu?.close());

const pair = (flags: string[]) =>
  runCli(['judge', 'pair', media('base.png'), media('blur.png'), ...flags, '--json'], {
    env: { KFBENCH_JUDGE: '', KFBENCH_JUDGE_URLS: '' },
  });

describe('credentials in a judge URL', () => {
  it.each([
    ['--judge', (u: string) => ['--judge', `openai:kfbench-emulator@${u.replace('//', '//me:s3cret@')}`]],
    [
      '--judge-url',
      (u: string) => [
        '--judge',
        `openai:kfbench-emulator@${u}`,
        '--judge-url',
        u.replace('//', '//me:s3cret@'),
      ],
    ],
  ])(
    'in %s: exit 2 at once, pointing at KFBENCH_API_KEY, no request made, the password never shown',
    async (_w, flags) => {
      const before = emu.log.length;
      const r = await pair(flags(emu.url));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/carries credentials \(user:password@\): give the key in KFBENCH_API_KEY/);
      expect(r.stderr).not.toContain('s3cret');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(emu.log.length).toBe(before);
    },
  );

  it('the library refuses them too, and a config file may carry the key instead', () => {
    const cfg = join(tempDir(), 'judge.json');
    writeFileSync(cfg, JSON.stringify({ judge: `openai:m@${emu.url}`, api_key: 'from-config' }));
    expect(resolveJudgeSettings({ config: cfg }, {}).apiKey).toBe('from-config');
    expect(() => parseJudgeSpec('openai:m@https://u:p@api.invalid/v1')).toThrow(UsageError);
    expect(() => checkJudgeUrl('http://u@127.0.0.1:1/v1', '--judge-url')).toThrow(/carries credentials/);
    expect(parseJudgeSpec('openai:qwen2.5vl:7b@http://127.0.0.1:11434/v1')).toEqual({
      kind: 'openai',
      model: 'qwen2.5vl:7b',
      url: 'http://127.0.0.1:11434/v1',
    });
  });
});

describe('query strings are redacted in every message', () => {
  it('redactUrl keeps origin and path only', () => {
    expect(redactUrl('https://h.invalid:8443/v1?api_key=K&x=1#frag')).toBe('https://h.invalid:8443/v1?…');
    expect(redactUrl('http://u:p@h.invalid/v1')).toBe('http://h.invalid/v1');
    expect(redactUrl('http://h.invalid/v1')).toBe('http://h.invalid/v1');
  });

  it('an unreachable endpoint with a key in its query: the error names the endpoint without the key', async () => {
    const r = await pair(['--judge', `openai:kfbench-emulator@${closedUrl}?api_key=SECRET-123`]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`judge endpoint ${closedUrl}?…: unreachable`);
    expect(r.stderr).not.toContain('SECRET-123');
  });

  it('a malformed spec with a key in it is a usage error that does not echo the key', async () => {
    const r = await pair(['--judge', 'openai:m@ftp://h.invalid/v1?key=SECRET-456']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('SECRET-456');
  });
});
