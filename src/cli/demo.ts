/** `kfbench demo`: runs what kfbench can do so far on generated material. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { runMediaDemo } from '../dev/demo-media.js';
import { printLines } from './output.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('build small generated material and run kfbench on it (no network, no GPU)')
    .option('--out <dir>', 'where the demo writes', 'kfbench-demo')
    .action(async (o: { out: string }) => {
      const out = resolve(o.out);
      const r = await runMediaDemo(out);
      printLines([
        `video   ${r.video}`,
        `probe   ${r.info.width}×${r.info.height}, ${r.info.frames} frames, ${r.info.fps} fps, ${r.info.duration_s.toFixed(2)} s`,
        `shots   ${r.shots.shots.length}: ${r.shots.shots.map((s) => `[${s.start_s.toFixed(2)}, ${s.end_s.toFixed(2)})`).join(' ')}`,
        `        ${r.shots.transitions.map((t) => `${t.kind}@${t.start_frame}${t.end_frame !== t.start_frame ? `–${t.end_frame}` : ''}`).join(', ')}`,
        `samples 1 fps at bucket midpoints (k + 0.5 s):`,
        ...r.samples.map(
          (s) => `        frame ${String(s.frame).padStart(4)}  t=${s.time_s.toFixed(3)} s  dhash ${s.dhash}`,
        ),
        `grid    ${r.grid}`,
      ]);
    });
}
