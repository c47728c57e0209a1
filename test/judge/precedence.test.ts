/**
 * Where a judge's settings come from (src/judge/precedence.ts): a flag over the config file over
 * the environment over the default, for every setting that each of them can set; the API key and
 * the claim lease have no flag (config over environment); the reply cap is the config file's only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { resolveJudgeSettings } from '../../src/judge/precedence.js';
import { tempDir } from '../support/paths.js';

const SPEC = (n: string) => `openai:${n}@http://127.0.0.1:9/v1`;

function config(o: object): string {
  const f = join(tempDir(), 'judge.json');
  writeFileSync(f, JSON.stringify(o));
  return f;
}

const ENV = {
  KFBENCH_JUDGE: SPEC('env'),
  KFBENCH_JUDGE_URLS: 'http://127.0.0.1:7/v1,http://127.0.0.1:8/v1',
  KFBENCH_CACHE: '/env.sqlite',
  KFBENCH_CLAIM_LEASE_S: '7',
  KFBENCH_API_KEY: 'env-key',
  OPENAI_API_KEY: 'openai-key',
};

const CONFIG = {
  judge: SPEC('config'),
  judge_urls: ['http://127.0.0.1:6/v1'],
  cache: '/config.sqlite',
  claim_lease_s: 11,
  api_key: 'config-key',
  concurrency: 3,
  timeout_s: 9,
};

describe('judge settings precedence', () => {
  it('defaults when only a judge is named', () => {
    const s = resolveJudgeSettings({ judge: SPEC('flag') }, {});
    expect(s).toMatchObject({
      spec: SPEC('flag'),
      extraUrls: [],
      concurrency: 16,
      timeoutMs: 120_000,
      maxRetries: 6,
      temperature: 0,
      maxTokens: 256,
      cache: undefined,
      apiKey: undefined,
    });
  });

  it('the environment over the defaults', () => {
    const s = resolveJudgeSettings({}, ENV);
    expect(s).toMatchObject({
      spec: SPEC('env'),
      extraUrls: ['http://127.0.0.1:7/v1', 'http://127.0.0.1:8/v1'],
      cache: '/env.sqlite',
      claimLeaseMs: 7000,
      apiKey: 'env-key',
    });
    expect(resolveJudgeSettings({}, { ...ENV, KFBENCH_API_KEY: '' }).apiKey).toBe('openai-key');
  });

  it('the config file over the environment', () => {
    const s = resolveJudgeSettings({ config: config(CONFIG) }, ENV);
    expect(s).toMatchObject({
      spec: SPEC('config'),
      extraUrls: ['http://127.0.0.1:6/v1'],
      cache: '/config.sqlite',
      claimLeaseMs: 11_000,
      apiKey: 'config-key',
      concurrency: 3,
      timeoutMs: 9000,
    });
  });

  it('a flag over the config file', () => {
    const s = resolveJudgeSettings(
      {
        config: config(CONFIG),
        judge: SPEC('flag'),
        judgeUrl: ['http://127.0.0.1:5/v1'],
        cache: '/flag.sqlite',
        concurrency: 2,
        timeoutS: 4,
      },
      ENV,
    );
    expect(s).toMatchObject({
      spec: SPEC('flag'),
      extraUrls: ['http://127.0.0.1:5/v1'],
      cache: '/flag.sqlite',
      concurrency: 2,
      timeoutMs: 4000,
      apiKey: 'config-key',
    });
  });

  it('no judge anywhere, or a bad lease in the environment: a UsageError saying where to put one', () => {
    expect(() => resolveJudgeSettings({}, {})).toThrow(UsageError);
    expect(() => resolveJudgeSettings({}, {})).toThrow(/--judge openai:MODEL@BASE_URL \| local:READER\.json/);
    expect(() => resolveJudgeSettings({ judge: SPEC('f') }, { KFBENCH_CLAIM_LEASE_S: 'soon' })).toThrow(
      /KFBENCH_CLAIM_LEASE_S must be a positive number/,
    );
  });
});
