/**
 * A film of your own, end to end on footage made here by ffmpeg (issue 57 item 7): `hero init`
 * writes the layout, `hero build` makes chains from its clips and one publicity still, and
 * `hero validate` accepts what `hero build` wrote (it said `rubrics.jsonl: missing`); an
 * evaluation with `--include-stills` whose only still sits in every chain says why the stills row
 * is empty instead of printing a row of dashes over 0 films beside a still-floor warning.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';

const FILM = '0001_My_Film';
let dir = '';
let emu: Emulator;
let judge = '';

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
}

async function must(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const r = await runCli(args, { cwd: dir });
  expect(r.code, `${args.slice(0, 2).join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}

beforeAll(async () => {
  dir = tempDir('kfbench-own-film-');
  mkdirSync(join(dir, 'films', FILM), { recursive: true });
  for (const [i, hue] of [0, 90, 180].entries())
    ffmpeg([
      ...['-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=24:duration=3`],
      ...['-vf', `hue=h=${hue}`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
      join(dir, 'films', FILM, `clip_${i}.mp4`),
    ]);
  mkdirSync(join(dir, 'stills', FILM), { recursive: true });
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'smptebars=size=320x180', '-frames:v', '1'],
    join(dir, 'stills', FILM, 'poster.jpg'),
  ]);
  emu = await startEmulator();
  judge = `openai:kfbench-emulator@${emu.url}`;
  await must(['hero', 'init', '--footage', 'films', '--out', 'mine']);
  await must([
    ...['hero', 'build', '--data', 'mine', '--lsmdc', 'films', '--stills', 'stills'],
    ...['--judge', judge, '--chains-per-film', '1'],
  ]);
});

afterAll(async () => {
  await emu?.close();
});

describe('a film of your own', () => {
  it('hero validate accepts what hero build wrote', async () => {
    const r = await runCli(['hero', 'validate', '--data', 'mine'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/rubrics\.jsonl: missing/);
    // the rubric file hero build wrote: one row per film, no rules
    const rows = readFileSync(join(dir, 'mine', 'data', 'rubrics.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(rows.map((l) => JSON.parse(l))).toEqual([{ movie_id: FILM, criteria: [] }]);
  });

  it('an empty stills row says why it is empty', async () => {
    await must(['hero', 'track', 'rebuild', '--lsmdc', 'films', '--data', 'mine', '--out', 'track']);
    await must(['hero', 'track', 'make-index', '--track', 'track', '--data', 'mine']);
    writeFileSync(
      join(dir, 'mine.jsonl'),
      `${JSON.stringify({
        movie_id: FILM,
        frames: [
          { rank: 1, frame_idx: 1 },
          { rank: 2, frame_idx: 7 },
        ],
      })}\n`,
    );
    const r = await must([
      ...['hero', 'evaluate', '--selections', 'mine.jsonl', '--data', 'mine', '--track', 'track'],
      ...['--judge', judge, '--include-stills', '--out', 'eval', '--bootstrap', '100'],
    ]);
    const said = r.stdout + r.stderr;
    expect(said).toContain(
      'the stills row is empty: each of the 1 publicity still(s) of the 1 film(s) scored is already in every chain of its film, and a still is never inserted into a chain that holds it',
    );
    // not the caveat meant for a row that has insertions
    expect(said).not.toContain('the stills row scores only the stills that survived');
    const summary = JSON.parse(readFileSync(join(dir, 'eval', 'summary.json'), 'utf8'));
    expect(summary.warnings.some((w: string) => w.startsWith('the stills row is empty:'))).toBe(true);
  });
});
