/**
 * examples/slurm end to end on a real single-node Slurm (Debian's slurm-wlm + munge, started by the
 * test): `submit.sh track|hero|compass 3` runs a 3-shard array and its dependent job (track verify or
 * merge); the track's frames, and the merged hero and Compass outputs, are identical to an unsharded
 * run. Opt-in (KFBENCH_SLURM_TEST=1): it needs root, the two Debian packages and free ports, and
 * starts three daemons — see docs/sharding.md, "Slurm and Kubernetes".
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { ROOT, tempDir } from '../support/paths.js';
import { type Slurm, startSlurm } from '../support/slurm.js';

const SUBMIT = join(ROOT, 'examples', 'slurm', 'submit.sh');

/** Every file under dir matching `keep`, by relative path, with its sha256. */
function hashes(dir: string, keep: (f: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const f = join(e.parentPath, e.name);
    if (e.isFile() && keep(f))
      out[relative(dir, f)] = createHash('sha256').update(readFileSync(f)).digest('hex');
  }
  return out;
}

describe.skipIf(!process.env.KFBENCH_SLURM_TEST)('examples/slurm on a real single-node Slurm', () => {
  let slurm: Slurm;
  let hero: MiniHeroPaths;
  let compass: MiniCompassPaths;
  let emu: Emulator;
  let dir = '';
  const submit = (step: string, env: Record<string, string>) =>
    new Promise<{ code: number; out: string }>((resolve, reject) => {
      const c = spawn(SUBMIT, [step, '3'], {
        cwd: dir,
        env: {
          ...slurm.env,
          KFBENCH: `${process.execPath} ${join(ROOT, 'dist', 'cli', 'bin.js')}`,
          AFTER_ARGS: '--wait',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      c.stdout.on('data', (b: Buffer) => {
        out += b.toString();
      });
      c.stderr.on('data', (b: Buffer) => {
        out += b.toString();
      });
      c.on('error', reject);
      c.on('close', (code) => resolve({ code: code ?? -1, out }));
    });
  /** The jobs' own output files (kfbench-*.out in the submit folder), for a failure message. */
  const jobLogs = () =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.out'))
      .map((f) => `== ${f}\n${readFileSync(join(dir, f), 'utf8')}`)
      .join('\n');

  beforeAll(async () => {
    [hero, compass] = await Promise.all([sharedMiniHero(), sharedMiniCompass()]);
    dir = tempDir('kfbench-slurm-');
    slurm = await startSlurm(join(dir, 'slurm'), { cpus: 2, port: 16817 });
    emu = await startEmulator();
  });
  afterAll(async () => {
    await emu?.close();
    await slurm?.stop();
  });

  it('track: a 3-shard rebuild array, then verify as a dependent job; the frames equal an unsharded rebuild', async () => {
    const track = join(dir, 'track');
    const r = await submit('track', { LSMDC: hero.lsmdc, DATA: hero.data, TRACK: track });
    expect(r.code, `${r.out}\n${jobLogs()}\n${slurm.logs()}`).toBe(0);
    const jpg = (f: string) => f.endsWith('.jpg');
    const got = hashes(track, jpg);
    expect(Object.keys(got).length).toBeGreaterThan(10);
    expect(got).toEqual(hashes(hero.track, jpg));
  });

  it('hero: a 3-shard evaluate array, then merge as a dependent job; the outputs equal an unsharded run', async () => {
    const sel = join(dir, 'uniform.jsonl');
    const s = await runCli([
      ...['hero', 'select', '--method', 'uniform', '--data', hero.data, '--track', hero.track],
      ...['--out', sel, '--k', '2'],
    ]);
    expect(s.code, s.stderr).toBe(0);
    const judge = `openai:kfbench-emulator@${emu.url}`;
    const extra = ['--bootstrap', '200', '--include-stills'];
    const out = join(dir, 'hero');
    const r = await submit('hero', {
      DATA: hero.data,
      TRACK: hero.track,
      SELECTIONS: sel,
      JUDGE: judge,
      OUT: out,
      EXTRA_ARGS: extra.join(' '),
    });
    expect(r.code, `${r.out}\n${jobLogs()}\n${slurm.logs()}`).toBe(0);
    const full = join(dir, 'hero-full');
    const u = await runCli([
      ...['hero', 'evaluate', '--selections', sel, '--data', hero.data, '--track', hero.track],
      ...['--judge', judge, '--cache', join(full, 'judge-cache.sqlite'), '--out', full, ...extra],
    ]);
    expect(u.code, u.stderr).toBe(0);
    for (const f of ['summary.json', 'per_film.csv', 'insertions.jsonl', 'report.md', 'settings.json'])
      expect(readFileSync(join(out, 'merged', f), 'utf8'), f).toBe(readFileSync(join(full, f), 'utf8'));
  });

  it('compass: a 3-shard evaluate array, then merge as a dependent job; the outputs equal an unsharded run', async () => {
    const judge = `openai:kfbench-emulator@${emu.url}`;
    const extra = ['--modes', 'minimal', '--segmenter', 'pixel'];
    const out = join(dir, 'compass');
    const r = await submit('compass', {
      CASES: compass.cases,
      VIDEOS: compass.videos,
      MODELS: 'faithful',
      JUDGE: judge,
      OUT: out,
      EXTRA_ARGS: extra.join(' '),
    });
    expect(r.code, `${r.out}\n${jobLogs()}\n${slurm.logs()}`).toBe(0);
    const full = join(dir, 'compass-full');
    const u = await runCli([
      ...['compass', 'evaluate', '--cases', compass.cases, '--videos', compass.videos, '--model', 'faithful'],
      ...['--judge', judge, '--out', full, ...extra],
    ]);
    expect(u.code, u.stderr).toBe(0);
    for (const f of [
      'leaderboard.json',
      'summary.json',
      'evaluation.jsonl',
      'checklists.jsonl',
      'response.jsonl',
      'settings.json',
    ])
      expect(readFileSync(join(out, 'merged', f), 'utf8'), f).toBe(readFileSync(join(full, f), 'utf8'));
  });
});
