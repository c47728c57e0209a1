/**
 * Smaller breaks of issue 31: `hero evaluate --shard 3/2` is refused (exit 2) before its judge
 * cache is made; `cache export … | head` stops quietly when the reader closes the pipe (no EPIPE
 * stack trace). Real files, a real pipe.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JudgeCache } from '../../src/judge/cache.js';
import { runCli } from '../support/cli.js';
import { ROOT, tempDir } from '../support/paths.js';
import { truncatedMp4 } from '../support/truncated.js';

describe('small breaks', () => {
  it('hero evaluate --shard 3/2: exit 2 and no cache file made', async () => {
    const dir = tempDir('kfbench-shard-flag-');
    const cache = join(dir, 'cache.sqlite');
    const r = await runCli([
      ...['hero', 'evaluate', '--selections', join(dir, 'none.jsonl'), '--data', dir, '--track', dir],
      ...['--judge', 'openai:m@http://127.0.0.1:9/v1', '--cache', cache, '--out', join(dir, 'out')],
      ...['--shard', '3/2'],
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--shard must be k/n');
    expect(existsSync(cache)).toBe(false);
  });

  it('cache export | head -1: one line, exit 0, no stack trace', () => {
    const dir = tempDir('kfbench-epipe-');
    const file = join(dir, 'cache.sqlite');
    const c = new JudgeCache(file);
    for (let i = 0; i < 3000; i++)
      c.put(
        `k${i}`,
        { backend: 'openai', model: 'm', protocol: 'p' },
        {
          answer: { winner: 'A', reason: 'x'.repeat(200) },
          unresolved: null,
          raw: ['{}'],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
          latency_ms: 1,
        },
      );
    c.close();
    const bin = join(ROOT, 'dist', 'cli', 'bin.js');
    const r = spawnSync(
      'bash',
      ['-o', 'pipefail', '-c', `"${process.execPath}" "${bin}" cache export --cache "${file}" | head -1`],
      {
        encoding: 'utf8',
      },
    );
    expect(r.stderr).not.toMatch(/EPIPE|Error/);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.status, r.stderr).toBe(0);
  });

  it('media probe on a truncated file: the frames that decode, and that the file is truncated', async () => {
    const { whole, cut } = await truncatedMp4(tempDir('kfbench-probe-cut-'));
    // what ffmpeg itself decodes of it (frames written to a null output)
    const decoded = spawnSync('ffprobe', [
      ...['-v', 'error', '-count_frames', '-select_streams', 'v:0'],
      ...['-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', cut],
    ]);
    const n = Number(decoded.stdout.toString().trim());
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(105);
    const r = await runCli(['media', 'probe', cut, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ frames: n, truncated: true, container_frames: 105 });
    const text = await runCli(['media', 'probe', cut]);
    expect(text.stdout).toContain(`${n} frames that decode (the file is truncated: its container lists 105)`);
    // an intact file says nothing of it
    const ok = JSON.parse((await runCli(['media', 'probe', whole, '--json'])).stdout);
    expect(ok.frames).toBe(105);
    expect(ok).not.toHaveProperty('truncated');
  });
});
