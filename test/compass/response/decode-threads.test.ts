/**
 * `--decode-threads N` reaches the scan's decoder: ffmpeg (a logging wrapper in front of the real
 * binary) is given `-threads N` before its input, on both the early decoder (started beside the
 * probe) and the ordinary one; without it ffmpeg chooses; the frames and so the scan are the same.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanVideo } from '../../../src/compass/scan/scan.js';
import type { Scan } from '../../../src/compass/schemas/scan.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { sampleToDir } from '../../../src/media/sample.js';
import { media, tempDir } from '../../support/paths.js';

const dir = tempDir('decode-threads');
const bin = join(dir, 'bin');
const log = join(dir, 'ffmpeg-args.log');
mkdirSync(bin, { recursive: true });
for (const tool of ['ffmpeg', 'ffprobe']) {
  const real = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
  const wrapper = join(bin, tool);
  // one line per run: the arguments, separated by a unit separator, appended in one write (ffmpeg
  // and ffprobe start together)
  writeFileSync(
    wrapper,
    `#!/bin/sh\nline=$(printf '%s\\037' ${tool} "$@")\nprintf '%s\\n' "$line" >> '${log}'\nexec '${real}' "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
}
const saved = process.env.FFMPEG_PATH;
afterAll(() => {
  if (saved === undefined) delete process.env.FFMPEG_PATH;
  else process.env.FFMPEG_PATH = saved;
});

/**
 * The argument lists of the frame-pair decoders since `from`: the ones writing each frame at two
 * sizes, the full one to pipe:1 and the embedder's small copy to pipe:3 (media/pairs.ts).
 */
function decoders(from: number): string[][] {
  return readFileSync(log, 'utf8')
    .slice(from)
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\x1f').slice(0, -1))
    .filter(
      (a) =>
        a[0] === 'ffmpeg' && pipeOf(a, '[pair_full]') === 'pipe:1' && pipeOf(a, '[pair_small]') === 'pipe:3',
    );
}

/** The pipe an output of the filter graph (`-map LABEL`) is written to. */
function pipeOf(args: string[], label: string): string | undefined {
  const m = args.indexOf(label);
  return m < 0 || args[m - 1] !== '-map' ? undefined : args.slice(m).find((x) => x.startsWith('pipe:'));
}

describe('--decode-threads', () => {
  it('gives the decoder -threads N on the early and the ordinary path, and leaves the scan unchanged', async () => {
    const video = media('shots.mp4');
    const frames = await sampleToDir(video, { kind: 'indices', indices: [5, 40] }, dir, { quality: 95 });
    const keyframes = frames.map((f, i) => ({ kf_id: `k${i}`, image: f.path }));
    const embedder = createBuiltinEmbedder();
    process.env.FFMPEG_PATH = join(bin, 'ffmpeg');
    writeFileSync(log, '');
    const scans: Scan[] = [];
    const args: string[][][] = [];
    for (const o of [
      { decodeThreads: 0, earlyStart: true },
      { decodeThreads: 1, earlyStart: true },
      { decodeThreads: 1, earlyStart: false },
      { decodeThreads: 3, earlyStart: false },
    ]) {
      const from = readFileSync(log, 'utf8').length;
      scans.push(await scanVideo({ video, keyframes }, embedder, o));
      args.push(decoders(from));
    }
    // one decoder per scan (the early one was used, not started twice)
    expect(args.map((a) => a.length)).toEqual([1, 1, 1, 1]);
    const threadsOf = (a: string[]) => {
      const t = a.indexOf('-threads');
      if (t < 0) return undefined;
      expect(t).toBeLessThan(a.indexOf('-i')); // an input option: the decoder's
      return a[t + 1];
    };
    expect(args.map((a) => threadsOf(a[0]!))).toEqual([undefined, '1', '1', '3']);
    // the early decoder reads scale expressions, the ordinary one the probed size
    expect(args[1]![0]!.join(' ')).toContain('if(gte(');
    expect(args[2]![0]!.join(' ')).not.toContain('if(gte(');
    for (const s of scans.slice(1)) expect(s).toEqual(scans[0]);
  });
});
