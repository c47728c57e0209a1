/**
 * Commands that only read a judge cache open it read-only and leave its folder as found (issue 46
 * item 5): on a real read-only bind mount, `cache stats`, `cache export` and `hero evaluate
 * --dry-run` exit 0 (they exited 4: SQLite wanted to make its -shm/-wal files, or the dry run
 * opened the cache for writing) and the folder's listing is unchanged.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanCache } from '../../src/compass/scan/cache.js';
import { JudgeCache } from '../../src/judge/cache.js';
import type { CachedAnswer } from '../../src/judge/cache-rows.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

const meta = { backend: 'openai', model: 'm', protocol: 'pairwise' };
const answer = (i: number): CachedAnswer => ({
  answer: { winner: i % 2 ? 'A' : 'B' },
  unresolved: null,
  raw: [`{"winner":"${i % 2 ? 'A' : 'B'}"}`],
  usage: { prompt_tokens: 10, completion_tokens: 2 },
  latency_ms: 5,
});

const src = tempDir();
const ro = join(tempDir(), 'ro');
mkdirSync(ro);
let mounted = false;
let why = '';
{
  const c = new JudgeCache(join(src, 'cache.sqlite'));
  for (let i = 0; i < 50; i++) c.put(`k${i}`, meta, answer(i));
  c.close();
  new ScanCache(join(src, 'scans.sqlite')).close();
  try {
    execFileSync('mount', ['--bind', src, ro], { stdio: 'ignore' });
    mounted = true;
    execFileSync('mount', ['-o', 'remount,ro,bind', ro], { stdio: 'ignore' });
  } catch (e) {
    why = (e as Error).message; // not root, or no mount: the tests below are skipped, saying so
  }
}
afterAll(() => {
  if (mounted) execFileSync('umount', [ro]);
});

const cache = join(ro, 'cache.sqlite');
const listing = () => readdirSync(ro).sort();
const AS_MADE = ['cache.sqlite', 'scans.sqlite'];

describe.skipIf(!mounted || why !== '')(`a judge cache on a read-only mount ${why}`, () => {
  it('is read-only indeed, and holds only the cache files', () => {
    expect(listing()).toEqual(AS_MADE);
    expect(() => execFileSync('touch', [join(ro, 'x')], { stdio: 'ignore' })).toThrow();
  });

  it('cache stats and cache export: exit 0, every row, the folder as found', async () => {
    const stats = await runCli(['cache', 'stats', '--cache', cache, '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(stats.stdout))).toContain('50');
    const exported = await runCli(['cache', 'export', '--cache', cache]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trim().split('\n')).toHaveLength(50);
    expect(listing()).toEqual(AS_MADE);
  });

  it('the library opens it read-only without -shm/-wal', () => {
    const db = openDatabase(cache, { readOnly: true });
    expect(db.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM judge_answers').get()?.n).toBe(50);
    expect(listing()).toEqual(AS_MADE);
    db.close();
    expect(listing()).toEqual(AS_MADE);
  });

  describe('hero evaluate --dry-run', () => {
    let mini: MiniHeroPaths;
    let emu: Emulator;
    const dir = tempDir();
    beforeAll(async () => {
      mini = await sharedMiniHero();
      emu = await startEmulator();
      const sel = await runCli([
        ...['hero', 'select', '--method', 'uniform', '--data', mini.data, '--track', mini.track],
        ...['--out', join(dir, 'uniform.jsonl'), '--k', '2'],
      ]);
      expect(sel.code, sel.stderr).toBe(0);
    });
    afterAll(async () => emu.close());

    it('counts what the cache holds: exit 0, no call, the folder as found', async () => {
      const r = await runCli([
        ...['hero', 'evaluate', '--selections', join(dir, 'uniform.jsonl'), '--data', mini.data],
        ...['--track', mini.track, '--judge', `openai:kfbench-emulator@${emu.url}`, '--judge-cache', cache],
        ...['--out', join(dir, 'o'), '--protocol', 'pairwise', '--dry-run', '--json'],
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ cached: 0 });
      expect(emu.log).toHaveLength(0);
      expect(listing()).toEqual(AS_MADE);
    });
  });

  it('compass evaluate --dry-run with its judge and scan caches there: exit 0, the folder as found', async () => {
    const p = await sharedMiniCompass();
    const dir = tempDir();
    const emu = await startEmulator();
    try {
      const r = await runCli([
        ...['compass', 'evaluate', '--cases', oneCaseFile(p, 'ot-03', dir), '--videos', p.videos],
        ...['--model', 'faithful', '--judge', `openai:kfbench-emulator@${emu.url}`, '--out', join(dir, 'o')],
        ...['--judge-cache', cache, '--scan-cache', join(ro, 'scans.sqlite'), '--dry-run'],
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^calls needed: \d+; already cached: 0 \(judge cache /m);
      expect(emu.log).toHaveLength(0);
    } finally {
      await emu.close();
    }
    expect(listing()).toEqual(AS_MADE);
  });
});
