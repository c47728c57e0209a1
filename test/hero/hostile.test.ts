/**
 * Broken and hostile dataset files through the real CLI: truncated `.zst` indexes, empty
 * required files, a 2 GB line, a 2 GB config. Each one is bad input (exit 3) naming the file.
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let emu: Emulator;
const A = TEST_FILMS[0]!.movie_id;
const B = TEST_FILMS[1]!.movie_id;
beforeAll(async () => {
  mini = await sharedMiniHero();
  emu = await startEmulator();
});
afterAll(async () => emu?.close());

function copyData(): string {
  const d = join(tempDir(), 'heroframe');
  cpSync(mini.data, d, { recursive: true });
  return d;
}

function sparse(file: string, bytes: number, head = ''): void {
  writeFileSync(file, head);
  const fd = openSync(file, 'r+');
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

describe('truncated or junk .zst indexes', () => {
  it('a track index cut to half: hero validate exits 3 naming the file (junk and other cuts: test/store)', async () => {
    const data = copyData();
    const f = join(data, 'frame_track', 'track_index.jsonl.zst');
    writeFileSync(f, readFileSync(f).subarray(0, readFileSync(f).length >> 1));
    const r = await runCli(['hero', 'validate', '--data', data]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(f);
    expect(r.stderr).toMatch(/not a complete zstd file|cannot decompress/);
  });

  it('a wrong track with a truncated verify file does not pass: exit 3 naming the verify file', async () => {
    // film B's folder holds film A's frames, and verify_dhash is cut before film B's rows
    const track = tempDir();
    cpSync(mini.track, track, { recursive: true });
    rmSync(join(track, B), { recursive: true });
    mkdirSync(join(track, B));
    for (const f of readdirSync(join(mini.track, A))) cpSync(join(mini.track, A, f), join(track, B, f));
    const data = copyData();
    const f = join(data, 'frame_track', 'verify_dhash.jsonl.zst');
    writeFileSync(f, readFileSync(f).subarray(0, 40));
    const r = await runCli(['hero', 'track', 'verify', '--track', track, '--data', data]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(f);
    expect(r.stdout).not.toMatch(new RegExp(`ok +${B}`));
  });

  it('a verify file that lists no frames of a film fails that film instead of skipping it', async () => {
    const data = copyData();
    const f = join(data, 'frame_track', 'verify_dhash.jsonl.zst');
    const rows = spawnSync('zstd', ['-dc', f], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((l) => l && !l.includes(B));
    expect(spawnSync('zstd', ['-q', '-f', '-o', f], { input: `${rows.join('\n')}\n` }).status).toBe(0);
    const r = await runCli(['hero', 'track', 'verify', '--track', mini.track, '--data', data]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(new RegExp(`FAILED ${B}.*verify_dhash lists none of its frames`));
    expect(r.stdout).toMatch(new RegExp(`ok +${A}`));
  });
});

describe('empty is not valid', () => {
  it('an empty chains.jsonl fails hero validate and hero evaluate, naming the file', async () => {
    const data = copyData();
    const chains = join(data, 'data', 'chains.jsonl');
    writeFileSync(chains, '\n');
    const v = await runCli(['hero', 'validate', '--data', data]);
    expect(v.code).toBe(3);
    expect(v.stderr).toContain(`${chains}: no rows`);
    const sel = join(tempDir(), 'first-frames.jsonl');
    writeFileSync(
      sel,
      [A, B].map((m) => JSON.stringify({ movie_id: m, frames: [{ rank: 1, frame_idx: 0 }] })).join('\n'),
    );
    const before = emu.log.length;
    const e = await runCli([
      'hero',
      'evaluate',
      '--selections',
      sel,
      '--data',
      data,
      '--track',
      mini.track,
      '--judge',
      `openai:kfbench-emulator@${emu.url}`,
      '--out',
      join(tempDir(), 'o'),
    ]);
    expect(e.code).toBe(3);
    expect(e.stderr).toContain(`${chains}: no rows`);
    expect(emu.log.length).toBe(before);
  });

  it('an empty selections file is bad input, not an evaluation of nothing', async () => {
    const sel = join(tempDir(), 'empty.jsonl');
    writeFileSync(sel, '');
    const before = emu.log.length;
    const out = join(tempDir(), 'o');
    const e = await runCli([
      'hero',
      'evaluate',
      '--selections',
      sel,
      '--data',
      mini.data,
      '--track',
      mini.track,
      '--judge',
      `openai:kfbench-emulator@${emu.url}`,
      '--missing',
      'zero',
      '--out',
      out,
    ]);
    expect(e.code).toBe(3);
    expect(e.stderr).toMatch(/empty\.jsonl: .*no rows/);
    expect(emu.log.length).toBe(before);
  });
});

describe('size limits', () => {
  it('a 2 GB line in chains.jsonl: hero validate exits 3 naming file and line', async () => {
    const data = copyData();
    const chains = join(data, 'data', 'chains.jsonl');
    const first = readFileSync(chains, 'utf8').split('\n')[0]!;
    sparse(chains, 2 * 1024 ** 3, `${first}\n`);
    const r = await runCli(['hero', 'validate', '--data', data]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${chains}:2: line longer than the 64 MiB limit`);
    expect(r.stderr).not.toMatch(/RangeError|\n\s+at /);
  });

  it('a 2 GB local reader is refused naming the file (not "does not exist")', async () => {
    const big = join(tempDir(), 'reader.json');
    sparse(big, 2 * 1024 ** 3, '{');
    const r = await runCli([
      'judge',
      'pair',
      join(mini.data, 'eval', 'query.txt'),
      big,
      '--judge',
      `local:${big}`,
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${big}: too large (2048 MiB`);
  });

  it('a 2 GB --config is refused naming the file', async () => {
    const cfg = join(tempDir(), 'judge.json');
    sparse(cfg, 2 * 1024 ** 3, '{');
    const r = await runCli([
      'hero',
      'evaluate',
      '--selections',
      join(tempDir(), 'none.jsonl'),
      '--data',
      mini.data,
      '--track',
      mini.track,
      '--config',
      cfg,
      '--out',
      join(tempDir(), 'o'),
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${cfg}: too large (2048 MiB; files read whole are limited to 64 MiB)`);
  });
});
