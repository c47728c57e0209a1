import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/hero/dataset/load.js';
import { checkSelections } from '../../src/hero/dataset/selections.js';
import { validateDataset } from '../../src/hero/dataset/validate.js';
import { startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero, TEST_FILMS } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
beforeAll(async () => {
  mini = await sharedMiniHero();
});

function copy(): string {
  const d = join(tempDir(), 'heroframe');
  cpSync(mini.data, d, { recursive: true });
  return d;
}

function editLine(file: string, line: number, edit: (obj: Record<string, unknown>) => unknown): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[line - 1] =
    typeof edit === 'function' ? JSON.stringify(edit(JSON.parse(lines[line - 1]!))) : lines[line - 1]!;
  writeFileSync(file, lines.join('\n'));
}

describe('hero validate', () => {
  it('the mini set is clean, with a summary', async () => {
    const r = await validateDataset(mini.data);
    expect(r.problems).toEqual([]);
    expect(r.summary).toMatchObject({ films: 2, chains: 4, pairs: 60, confident_share: 1, verify_rows: 48 });
  });

  it.each([
    [
      'a bad JSON line',
      'data/chains.jsonl',
      2,
      (f: string) => editRaw(f, 2, '{"movie_id": "x", '),
      /data\/chains\.jsonl:2: not valid JSON/,
    ],
    [
      'a missing field',
      'data/movies.jsonl',
      1,
      (f: string) => editLine(f, 1, ({ title: _t, ...rest }) => rest),
      /data\/movies\.jsonl:1: title: /,
    ],
    [
      'a 5-image chain',
      'data/chains.jsonl',
      1,
      (f: string) =>
        editLine(f, 1, (o) => {
          const c = (o.chains as { images: unknown[] }[])[0]!;
          c.images = c.images.slice(0, 5);
          return o;
        }),
      /data\/chains\.jsonl:1: chain \S+ has 5 images \(5 distinct\), expected 6 distinct/,
    ],
    [
      'a traversal id',
      'data/chains.jsonl',
      1,
      (f: string) =>
        editLine(f, 1, (o) => {
          (o.chains as { images: { image_id: string }[] }[])[0]!.images[0]!.image_id = '../../etc/passwd';
          return o;
        }),
      /data\/chains\.jsonl:1: chains\.0\.(images\.0\.image_id|order\.\d+): id is not safe as a path part/,
    ],
    [
      'two stills in a chain',
      'data/chains.jsonl',
      2,
      (f: string) =>
        editLine(f, 2, (o) => {
          // without the anchor (the release's still), the images' own `source` decides
          const c = (o.chains as { anchor?: string; images: { source: string }[] }[])[0]!;
          delete c.anchor;
          for (const im of c.images) im.source = 'still';
          return o;
        }),
      /data\/chains\.jsonl:2: chain \S+ has 6 publicity stills, expected exactly 1/,
    ],
  ])('%s → file:line', async (_, rel, _line, corrupt, msg) => {
    const d = copy();
    corrupt(join(d, rel));
    const r = await validateDataset(d);
    expect(
      r.problems.some((p) => msg.test(p)),
      r.problems.join('\n'),
    ).toBe(true);
  });

  it('an image that does not match its sha256', async () => {
    const d = copy();
    const chains = JSON.parse(readFileSync(join(d, 'data', 'chains.jsonl'), 'utf8').split('\n')[0]!);
    const id = chains.chains[0].images[0].image_id;
    const file = join(d, 'images', chains.movie_id, `${id}.jpg`);
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([0])]));
    const r = await validateDataset(d);
    expect(r.problems).toContain(
      `${join(d, 'images', 'image_sha256.jsonl')}: images/${chains.movie_id}/${id}.jpg does not match its sha256`,
    );
  });

  it('the CLI prints every problem and exits 3', async () => {
    const d = copy();
    editRaw(join(d, 'data', 'chains.jsonl'), 2, 'not json');
    const r = await runCli(['hero', 'validate', '--data', d]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${join(d, 'data', 'chains.jsonl')}:2: not valid JSON`);
    expect((await runCli(['hero', 'validate', '--data', mini.data, '--json'])).code).toBe(0);
  });
});

function editRaw(file: string, line: number, text: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[line - 1] = text;
  writeFileSync(file, lines.join('\n'));
}

describe('hero check-selections', () => {
  it('names every problem by line, before any judge call', async () => {
    const A = TEST_FILMS[0]!.movie_id;
    const B = TEST_FILMS[1]!.movie_id;
    const file = join(tempDir(), 'sel.jsonl');
    const f = (rank: number, frame_idx: number) => ({ rank, frame_idx });
    writeFileSync(
      file,
      [
        { movie_id: A, frames: [f(1, 3), f(2, 10)] },
        { movie_id: 'no_such_film', frames: [f(1, 1)] },
        { movie_id: B, frames: [f(1, 1), f(1, 2)] },
        { movie_id: A, frames: [f(1, 99999)] },
        { movie_id: B, frames: [f(1, 1), f(2, 2), f(3, 3), f(4, 4), f(5, 5), f(6, 6)] },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const ds = await loadCore(mini.data);
    const r = await checkSelections(file, ds.timelines);
    expect(r.problems).toEqual([
      `${file}:2: unknown movie_id no_such_film`,
      `${file}:3: ranks must be 1..2, each once (got 1, 1)`,
      `${file}:4: a second line for ${A} (one line per film)`,
      `${file}:4: frame_idx 99999 is outside ${A}'s track (0..${ds.timelines.get(A)!.frameCount - 1})`,
      `${file}:5: a second line for ${B} (one line per film)`,
      `${file}:5: 6 frames for ${B}, at most 5`,
    ]);
    const cli = await runCli(['hero', 'check-selections', file, '--data', mini.data]);
    expect(cli.code).toBe(3);
    // every problem in the report, then the one line hero evaluate refuses the file with
    expect(cli.stdout).toContain(`${file}:2: unknown movie_id no_such_film`);
    expect(cli.stderr).toBe(
      `kfbench: ${file}: line 2: unknown movie_id no_such_film (and 5 more problems)\n`,
    );
  });

  it('gives the verdict hero evaluate gives: a partial file is refused by both, with its coverage', async () => {
    const [A, B] = TEST_FILMS.map((f) => f.movie_id) as [string, string];
    const dir = tempDir();
    const partial = join(dir, 'partial.jsonl');
    writeFileSync(partial, `${JSON.stringify({ movie_id: A, frames: [{ rank: 1, frame_idx: 2 }] })}\n`);
    const full = join(dir, 'full.jsonl');
    writeFileSync(
      full,
      [A, B].map((movie_id) => JSON.stringify({ movie_id, frames: [{ rank: 1, frame_idx: 2 }] })).join('\n'),
    );
    const emu = await startEmulator();
    try {
      const evaluate = (file: string, extra: string[] = []) =>
        runCli([
          'hero',
          'evaluate',
          '--selections',
          file,
          '--data',
          mini.data,
          '--track',
          mini.track,
          '--judge',
          `openai:kfbench-emulator@${emu.url}`,
          '--out',
          join(tempDir(), 'o'),
          '--dry-run',
          ...extra,
        ]);
      const check = (file: string, extra: string[] = []) =>
        runCli(['hero', 'check-selections', file, '--data', mini.data, '--track', mini.track, ...extra]);
      const [ev, ch] = [await evaluate(partial), await check(partial)];
      expect(ev.code).toBe(3);
      expect(ch.code).toBe(ev.code);
      expect(ev.stderr).toBe(
        `kfbench: ${partial}: method partial submits nothing for 1 of 2 film(s) with chains (${B}); pass --missing zero to score them 0\n`,
      );
      expect(ch.stderr).toBe(ev.stderr);
      expect(ch.stdout).toBe(`1 of 2 films selected (coverage 50.0 %), 1 frames\nnot selected: ${B}\n`);
      const json = JSON.parse((await check(partial, ['--json'])).stdout);
      expect(json).toMatchObject({ films: 1, covered: 1, films_in_set: 2, missing_films: [B], problems: [] });
      expect(json.error).toBe(ev.stderr.slice('kfbench: '.length, -1));
      // accepted by both with --missing zero, and a complete file by both as it is
      expect((await evaluate(partial, ['--missing', 'zero'])).code).toBe(0);
      expect((await check(partial, ['--missing', 'zero'])).code).toBe(0);
      expect((await evaluate(full)).code).toBe(0);
      const ok = await check(full);
      expect([ok.code, ok.stdout]).toEqual([0, '2 of 2 films selected (coverage 100.0 %), 2 frames\n']);
      // a frame the track lacks: the same refusal from both
      const noTrack = join(tempDir(), 'no-track');
      const ev2 = await runCli([
        'hero',
        'evaluate',
        '--selections',
        full,
        '--data',
        mini.data,
        '--track',
        noTrack,
        '--judge',
        `openai:kfbench-emulator@${emu.url}`,
        '--out',
        join(tempDir(), 'o'),
        '--dry-run',
      ]);
      const ch2 = await runCli(['hero', 'check-selections', full, '--data', mini.data, '--track', noTrack]);
      expect(ev2.code).toBe(3);
      expect([ch2.code, ch2.stderr]).toEqual([ev2.code, ev2.stderr]);
      expect(emu.log.length).toBe(0);
    } finally {
      await emu.close();
    }
  });
});
