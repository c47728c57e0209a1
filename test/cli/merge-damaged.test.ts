/**
 * `kfbench merge` trusts no damaged shard (issue 31): a shard's outputs.json records the size,
 * sha256 and rows (by film / case) of every file it wrote, and a merge refuses a shard whose
 * files were emptied, cut at a line boundary or edited since (exit 3 naming the shard's file);
 * `--out` given as a symbolic link to a shard is refused by its real path, and the shard is left
 * byte for byte as it was. Real shard folders from the mini sets against the emulator.
 */
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let hero: MiniHeroPaths;
let compass: MiniCompassPaths;
let emu: Emulator;

beforeAll(async () => {
  [hero, compass] = await Promise.all([sharedMiniHero(), sharedMiniCompass()]);
  emu = await startEmulator();
});
afterAll(async () => emu?.close());

const read = (d: string, f: string) => readFileSync(join(d, f), 'utf8');
const ok = async (args: string[]) => {
  const r = await runCli(args);
  expect(r.code, r.stderr).toBe(0);
  return r;
};

/** A copy of shard folder `from` at `to`, its file `name` changed by `edit`. */
function damaged(from: string, to: string, name: string, edit: (text: string) => string): string {
  cpSync(from, to, { recursive: true });
  writeFileSync(join(to, name), edit(read(from, name)));
  return to;
}

const dropLastLine = (t: string) => {
  const lines = t.split('\n').filter(Boolean);
  return `${lines.slice(0, -1).join('\n')}\n`;
};

describe('kfbench merge hero refuses a damaged shard', () => {
  it('emptied, cut or edited insertions.jsonl, a missing outputs.json: exit 3 naming the file; a linked --out: refused, the shard untouched', async () => {
    const dir = tempDir('kfbench-merge-damaged-hero-');
    const sel = join(dir, 'uniform.jsonl');
    await ok([
      ...['hero', 'select', '--method', 'uniform', '--data', hero.data, '--track', hero.track],
      ...['--out', sel, '--k', '2'],
    ]);
    const [s1, s2] = ['s1', 's2'].map((n) => join(dir, n)) as [string, string];
    const evaluate = (out: string, shard: string) =>
      ok([
        ...['hero', 'evaluate', '--selections', sel, '--data', hero.data, '--track', hero.track],
        ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--cache', join(dir, `${shard[0]}.sqlite`)],
        ...['--out', out, '--bootstrap', '200', '--include-stills', '--shard', shard],
      ]);
    await evaluate(s1, '1/2');
    await evaluate(s2, '2/2');
    const rec = JSON.parse(read(s2, 'outputs.json'));
    expect(rec.files['insertions.jsonl'].rows).toBe(
      read(s2, 'insertions.jsonl').split('\n').filter(Boolean).length,
    );
    await ok(['merge', 'hero', s1, s2, '--out', join(dir, 'good')]);

    const cases: [string, string, (t: string) => string, RegExp][] = [
      ['emptied', 'insertions.jsonl', () => '', /bytes/],
      ['cut', 'insertions.jsonl', dropLastLine, /bytes/],
      ['edited', 'insertions.jsonl', (t) => t.replace(/"rank":1/, '"rank":2'), /sha256 differs/],
      ['settings', 'settings.json', (t) => t.replace('"bootstrap": 200', '"bootstrap": 201'), /bytes|sha256/],
    ];
    for (const [name, file, edit, why] of cases) {
      const bad = damaged(s2, join(dir, name), file, edit);
      const out = join(dir, `out-${name}`);
      const r = await runCli(['merge', 'hero', s1, bad, '--out', out]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toContain(`${join(bad, file)}: does not match what shard ${bad} wrote`);
      expect(r.stderr).toMatch(why);
      expect(existsSync(out), name).toBe(false);
    }
    // no record of its files: refused
    const bare = join(dir, 'bare');
    cpSync(s2, bare, { recursive: true });
    writeFileSync(join(bare, 'outputs.json'), '');
    const noRec = await runCli(['merge', 'hero', s1, bare, '--out', join(dir, 'out-bare')]);
    expect(noRec.code, noRec.stderr).toBe(3);
    expect(noRec.stderr).toContain(join(bare, 'outputs.json'));

    // --out a link to a shard: refused by its real path; the shard is as it was
    const before = read(s1, 'insertions.jsonl');
    const link = join(dir, 's1link');
    symlinkSync(s1, link);
    const linked = await runCli(['merge', 'hero', s1, s2, '--out', link]);
    expect(linked.code, linked.stderr).toBe(2);
    expect(linked.stderr).toContain('--out must not be one of the shard folders');
    expect(read(s1, 'insertions.jsonl')).toBe(before);
    expect(JSON.parse(read(s1, 'settings.json')).items).toHaveLength(1);
  });
});

describe('kfbench merge compass refuses a damaged shard', () => {
  it('an emptied response.jsonl or a row moved to another case: exit 3; a linked --out: refused', async () => {
    const dir = tempDir('kfbench-merge-damaged-compass-');
    const [s1, s2] = ['s1', 's2'].map((n) => join(dir, n)) as [string, string];
    const cache = join(dir, 'scans.sqlite');
    const score = (out: string, shard: string) =>
      ok([
        ...['compass', 'score', '--cases', compass.cases, '--videos', compass.videos, '--out', out],
        ...['--model', 'faithful', '--modes', 'minimal', '--case-ids', 'ot-03', 'ms-06'],
        ...['--shard', shard, '--cache', cache],
      ]);
    await score(s1, '1/2');
    await score(s2, '2/2');
    await ok(['merge', 'compass', s1, s2, '--out', join(dir, 'good')]);

    const emptied = damaged(s2, join(dir, 'emptied'), 'response.jsonl', () => '');
    const r = await runCli(['merge', 'compass', s1, emptied, '--out', join(dir, 'out-emptied')]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(
      `${join(emptied, 'response.jsonl')}: does not match what shard ${emptied} wrote`,
    );
    expect(existsSync(join(dir, 'out-emptied'))).toBe(false);

    // a row moved to the other shard's case, with outputs.json made to agree: its case is not the shard's
    const [c1] = JSON.parse(read(s1, 'settings.json')).items as string[];
    const [c2] = JSON.parse(read(s2, 'settings.json')).items as string[];
    const moved = damaged(s2, join(dir, 'moved'), 'response.jsonl', (t) =>
      t.replace(`"case_id":"${c2}"`, `"case_id":"${c1}"`),
    );
    const rec = JSON.parse(read(moved, 'outputs.json'));
    const { createHash } = await import('node:crypto');
    const bytes = readFileSync(join(moved, 'response.jsonl'));
    rec.files['response.jsonl'].bytes = bytes.length;
    rec.files['response.jsonl'].sha256 = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(moved, 'outputs.json'), JSON.stringify(rec));
    const m = await runCli(['merge', 'compass', s1, moved, '--out', join(dir, 'out-moved')]);
    expect(m.code, m.stderr).toBe(3);
    expect(m.stderr).toContain(`a row of case_id ${c1}, which shard ${moved} does not hold`);

    const before = read(s2, 'response.jsonl');
    const link = join(dir, 's2link');
    symlinkSync(s2, link);
    const linked = await runCli(['merge', 'compass', s1, s2, '--out', link]);
    expect(linked.code, linked.stderr).toBe(2);
    expect(read(s2, 'response.jsonl')).toBe(before);
  });
});
