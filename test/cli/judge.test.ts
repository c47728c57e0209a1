import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { media, tempDir } from '../support/paths.js';

let emu: Emulator;
let spec: string;
let closedUrl: string;
beforeAll(async () => {
  emu = await startEmulator();
  spec = `openai:kfbench-emulator@${emu.url}`;
  const gone = await startEmulator();
  closedUrl = gone.url;
  await gone.close();
});
afterAll(async () => emu.close());

describe('kfbench judge (JSON shapes) and the cache', () => {
  it('pair, then the same pair again from the cache; insert; cache stats/export/prune', async () => {
    const cache = join(tempDir(), 'c.sqlite');
    const args = [
      'judge',
      'pair',
      media('base.png'),
      media('blur.png'),
      '--judge',
      spec,
      '--cache',
      cache,
      '--json',
    ];
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j).sort()).toEqual(['cached', 'calls', 'status', 'verdicts', 'winner']);
    expect(j).toMatchObject({ winner: 'A', status: 'confident', calls: 2, cached: 0 });
    expect(j.verdicts).toHaveLength(2);
    const again = JSON.parse((await runCli(args)).stdout);
    expect(again).toMatchObject({ winner: 'A', calls: 0, cached: 2 });

    const ins = await runCli([
      'judge',
      'insert',
      media('base.png'),
      '--chain',
      [media('astronaut.png'), media('coffee.png'), media('blur.png')].join(','),
      '--judge',
      spec,
      '--cache',
      cache,
      '--protocol',
      'listwise',
      '--json',
    ]);
    expect(ins.code, ins.stderr).toBe(0);
    const ij = JSON.parse(ins.stdout);
    expect(Object.keys(ij).sort()).toEqual(['cached', 'calls', 'position', 'unresolved']);
    expect(ij.position).toBeGreaterThanOrEqual(1); // at least above the blurred copy

    const stats = JSON.parse((await runCli(['cache', 'stats', '--cache', cache, '--json'])).stdout);
    expect(stats.rows).toBe(3);
    const exported = (await runCli(['cache', 'export', '--cache', cache])).stdout.trim().split('\n');
    expect(exported).toHaveLength(3);
    expect(JSON.parse(exported[0]!)).toMatchObject({ backend: 'openai', model: 'kfbench-emulator' });
    const pruned = JSON.parse(
      (await runCli(['cache', 'prune', '--cache', cache, '--model', 'kfbench-emulator', '--json'])).stdout,
    );
    expect(pruned).toEqual({ deleted: 3 });
  });

  it('judge insert asks the published positional (listwise) question unless --protocol says otherwise', async () => {
    const cache = join(tempDir(), 'c.sqlite');
    const chain = [media('astronaut.png'), media('coffee.png'), media('blur.png')].join(',');
    const base = ['judge', 'insert', media('base.png'), '--chain', chain, '--judge', spec, '--cache', cache];
    const r = await runCli([...base, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ calls: 1, cached: 0 }); // one listwise question
    const stats = JSON.parse((await runCli(['cache', 'stats', '--cache', cache, '--json'])).stdout);
    expect(stats.by_model.map((m: { protocol: string }) => m.protocol)).toEqual(['listwise']);
    const pw = await runCli([...base, '--protocol', 'pairwise', '--json']);
    expect(JSON.parse(pw.stdout)).toMatchObject({ calls: 6 }); // three chain images, both placements
  });

  it('a config file supplies the judge; flags override it', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'judge.json');
    writeFileSync(cfg, JSON.stringify({ judge: 'openai:wrong-model@http://127.0.0.1:9/v1', concurrency: 2 }));
    const viaFlag = await runCli([
      'judge',
      'pair',
      media('base.png'),
      media('blur.png'),
      '--config',
      cfg,
      '--judge',
      spec,
      '--json',
    ]);
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    writeFileSync(cfg, JSON.stringify({ judge: spec }));
    expect(
      (await runCli(['judge', 'pair', media('base.png'), media('blur.png'), '--config', cfg, '--json'])).code,
    ).toBe(0);
  });

  it.each([
    [['--judge', 'gpt4o'], 2, /--judge must be openai:MODEL@BASE_URL \| local:READER\.json/],
    [
      ['--judge', 'local:/nonexistent/reader.json'],
      2,
      /does not exist: make one with `npx kfbench hero fit-reader/,
    ],
    [['--judge', 'openai:no-such-model@URL'], 4, /HTTP 404/],
    [
      ['--judge', 'openai:kfbench-emulator@CLOSED'],
      4,
      /judge endpoint http:\/\/127\.0\.0\.1:\d+\/v1: unreachable \(ECONNREFUSED\)/,
    ],
    [[], 2, /no judge given/],
  ])('%j → exit %i, one line', async (flags, code, msg) => {
    const f = (flags as string[]).map((x) => x.replace('URL', emu.url).replace('CLOSED', closedUrl));
    const r = await runCli(['judge', 'pair', media('base.png'), media('blur.png'), ...f, '--json'], {
      env: { KFBENCH_JUDGE: '' },
    });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
