/**
 * Outputs never destroy inputs, and a replaced output folder is never lost (issue 46, item 4).
 * `refuseOverlap` on real paths (a symbolic link, a path not made yet); `writeOutputFolder`
 * replacing an existing folder by a swap whose every step leaves a whole folder at a known name:
 * each step boundary is reached by calling the step functions themselves, as a run killed there
 * would have left it (with the pid of a process that has exited), and the next run puts it right.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  carryOver,
  putInPlace,
  recoverOutputFolder,
  setAside,
  writeOutputFolder,
} from '../../src/store/out-folder.js';
import { markOwned, OWNER_FILE } from '../../src/store/out-folder-owner.js';
import { refuseOverlap } from '../../src/store/path-overlap.js';
import { ROOT, tempDir } from '../support/paths.js';

/** The pid of a process that has exited: what a run killed mid-way leaves in its names. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

/** A previous run's output folder: summary.json and a judge cache kept in it. */
function previous(dir: string): string {
  const out = join(dir, 'ev1');
  mkdirSync(out);
  writeFileSync(join(out, 'summary.json'), 'old summary\n');
  writeFileSync(join(out, 'judge-cache.sqlite'), 'the answers\n');
  return out;
}

const listing = (d: string) => readdirSync(d).sort();

describe('refuseOverlap', () => {
  it('an input that is a file the run writes, by a link or not yet made, is refused naming both', () => {
    const dir = tempDir('kfbench-overlap-');
    const out = previous(dir);
    symlinkSync(out, join(dir, 'link'));
    const writes = [{ flag: '--out', path: join(out, 'summary.json') }];
    const refused = (reads: string) => () =>
      refuseOverlap({ reads: [{ flag: '--judge-cache', path: reads }], writes });
    expect(refused(join(out, 'summary.json'))).toThrow(UsageError);
    expect(refused(join(out, 'summary.json'))).toThrow(
      `--judge-cache ${join(out, 'summary.json')} is the same path as --out ${join(out, 'summary.json')}, which this run writes`,
    );
    // through a symbolic link to the output folder
    expect(refused(join(dir, 'link', 'summary.json'))).toThrow(/is the same path as --out/);
    // the documented default, a judge cache kept in --out, is not a file the run writes
    expect(refused(join(out, 'judge-cache.sqlite'))).not.toThrow();
    // a folder not made yet resolves through its nearest existing parent: an input inside it
    const fresh = [{ flag: '--out', path: join(dir, 'link', 'new') }];
    expect(() =>
      refuseOverlap({
        reads: [{ flag: '--cases', path: join(out, 'new', 'x', 'cases.jsonl') }],
        writes: fresh,
      }),
    ).toThrow(/--cases .* is inside --out .*link\/new, which this run writes/);
  });

  it('a path written inside a folder read whole (a shard) is refused', () => {
    const dir = tempDir('kfbench-overlap-');
    const shard = previous(dir);
    expect(() =>
      refuseOverlap({
        reads: [],
        writes: [{ flag: '--out', path: join(shard, 'merged') }],
        readsWhole: [{ flag: 'shard', path: shard }],
      }),
    ).toThrow(
      `--out ${join(shard, 'merged')} is inside shard ${shard}, which this run reads: write elsewhere`,
    );
    expect(() =>
      refuseOverlap({
        reads: [],
        writes: [{ flag: '--out', path: join(dir, 'merged') }],
        readsWhole: [{ flag: 'shard', path: shard }],
      }),
    ).not.toThrow();
  });
});

describe('writeOutputFolder replacing an existing folder', () => {
  it('swaps in the new folder, keeping the files it does not write (hard links, the same file)', async () => {
    const dir = tempDir('kfbench-replace-');
    const out = previous(dir);
    const cacheInode = statSync(join(out, 'judge-cache.sqlite')).ino;
    await writeOutputFolder(out, async (stage) =>
      writeFileSync(join(stage, 'summary.json'), 'new summary\n'),
    );
    expect(listing(out)).toEqual(['judge-cache.sqlite', 'summary.json']);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('new summary\n');
    expect(statSync(join(out, 'judge-cache.sqlite')).ino).toBe(cacheInode);
    // nothing staged or set aside is left beside it
    expect(listing(dir)).toEqual(['ev1']);
  });

  it('refuses, before anything moves, to write a file over an input it was given', async () => {
    const dir = tempDir('kfbench-replace-');
    const out = previous(dir);
    const reads = [{ flag: '--judge-cache', path: join(out, 'summary.json') }];
    await expect(
      writeOutputFolder(out, async (stage) => writeFileSync(join(stage, 'summary.json'), 'new\n'), { reads }),
    ).rejects.toThrow(/--judge-cache .*summary.json is the same path as --out .*summary.json/);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('old summary\n');
    expect(listing(dir)).toEqual(['ev1']);
  });

  it('killed after setting the old folder aside: the next run restores it, then replaces it', async () => {
    const dir = tempDir('kfbench-replace-');
    const out = previous(dir);
    const stageTag = `${deadPid()}.0badc0de`;
    const stage = join(dir, `.ev1.${stageTag}.partial`);
    mkdirSync(stage);
    await markOwned(stage, stageTag);
    writeFileSync(join(stage, 'summary.json'), 'half');
    await carryOver(out, stage);
    const old = await setAside(out, `${deadPid()}.0badc0de`);
    // the moment of the kill: no ev1, but the old one whole under a known name
    expect(existsSync(out)).toBe(false);
    expect(listing(old)).toEqual([OWNER_FILE, 'judge-cache.sqlite', 'summary.json']);

    await recoverOutputFolder(out);
    expect(listing(dir)).toEqual(['ev1']);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('old summary\n');

    // and a run that finds that state does the same before it writes
    const again = await setAside(out, `${deadPid()}.0badc0de`);
    await writeOutputFolder(out, async (s) => writeFileSync(join(s, 'report.md'), 'new\n'));
    expect(existsSync(again)).toBe(false);
    expect(listing(out)).toEqual(['judge-cache.sqlite', 'report.md', 'summary.json']);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('old summary\n');
  });

  it('killed after the new folder is in place: the next run removes the old one', async () => {
    const dir = tempDir('kfbench-replace-');
    const out = previous(dir);
    const stageTag = `${deadPid()}.0badc0de`;
    const stage = join(dir, `.ev1.${stageTag}.partial`);
    mkdirSync(stage);
    await markOwned(stage, stageTag);
    writeFileSync(join(stage, 'summary.json'), 'new summary\n');
    await carryOver(out, stage);
    const old = await setAside(out, `${deadPid()}.0badc0de`);
    // a file another process wrote into the old folder after the carry-over is moved across
    writeFileSync(join(old, 'late.txt'), 'late\n');
    await putInPlace(stage, out, old);
    expect(listing(dir)).toEqual(['ev1']);
    expect(listing(out)).toEqual(['judge-cache.sqlite', 'late.txt', 'summary.json']);

    // killed between the rename and the removal: the old folder is left; a staging folder too
    for (const [tag, kind] of [
      [`${deadPid()}.0badc0de`, 'old'],
      [`${deadPid()}.00000001`, 'partial'],
    ]) {
      mkdirSync(join(dir, `.ev1.${tag}.${kind}`));
      await markOwned(join(dir, `.ev1.${tag}.${kind}`), tag!);
    }
    await recoverOutputFolder(out);
    expect(listing(dir)).toEqual(['ev1']);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('new summary\n');
  });

  it("leaves a live run's staging and old folders alone", async () => {
    const dir = tempDir('kfbench-replace-');
    const out = previous(dir);
    const mine = join(dir, `.ev1.${process.pid}.0badc0de.partial`);
    mkdirSync(mine);
    await markOwned(mine, `${process.pid}.0badc0de`);
    await recoverOutputFolder(out);
    expect(existsSync(mine)).toBe(true);
  });
});

describe('recovery trusts no pid and no name (issue 55, items 10 and 11)', () => {
  /** A real run killed (SIGKILL) right after setting `out` aside: its old folder is left. */
  function killedAfterSetAside(out: string): string {
    const code = `import { setAside } from ${JSON.stringify(join(ROOT, 'src', 'store', 'out-folder.ts'))};
      await setAside(${JSON.stringify(out)}); process.kill(process.pid, 'SIGKILL');`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: ROOT,
    });
    expect(r.signal).toBe('SIGKILL');
    const left = readdirSync(join(out, '..')).filter((n) => n.endsWith('.old'));
    expect(left).toHaveLength(1);
    return join(out, '..', left[0]!);
  }

  it('10. the crashed run’s pid alive again (reused): the old folder is still restored with what it carried', async () => {
    const dir = tempDir('kfbench-reuse-');
    const out = previous(dir);
    const old = killedAfterSetAside(out);
    // the pid is reused: a live process now has it (here: a sleeping child), in the name and record
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      const [, token] = /\.ev1\.\d+\.([0-9a-f]+)\.old$/.exec(old)!;
      const reused = join(dir, `.ev1.${sleeper.pid}.${token}.old`);
      renameSync(old, reused);
      const owner = JSON.parse(readFileSync(join(reused, OWNER_FILE), 'utf8')) as { pid: number };
      writeFileSync(join(reused, OWNER_FILE), JSON.stringify({ ...owner, pid: sleeper.pid }));
      await writeOutputFolder(out, async (s) => writeFileSync(join(s, 'report.md'), 'new\n'));
      expect(listing(dir)).toEqual(['ev1']);
      expect(listing(out)).toEqual(['judge-cache.sqlite', 'report.md', 'summary.json']);
      expect(readFileSync(join(out, 'judge-cache.sqlite'), 'utf8')).toBe('the answers\n');
    } finally {
      sleeper.kill();
    }
  });

  it('11. a look-alike folder (the name of ours, no owner record) is never removed', async () => {
    const dir = tempDir('kfbench-lookalike-');
    const out = previous(dir);
    for (const kind of ['old', 'partial']) {
      const look = join(dir, `.ev1.${deadPid()}.abcdef.${kind}`);
      mkdirSync(look);
      writeFileSync(join(look, 'notes.txt'), 'mine\n');
    }
    await writeOutputFolder(out, async (s) => writeFileSync(join(s, 'report.md'), 'new\n'));
    expect(listing(dir)).toHaveLength(3);
    for (const n of listing(dir).filter((x) => x !== 'ev1'))
      expect(readFileSync(join(dir, n, 'notes.txt'), 'utf8')).toBe('mine\n');
  });
});
