/** `kfbench compass init`: a cases.jsonl skeleton for your own videos. */
import type { Command } from 'commander';
import { initCases } from '../compass/init.js';
import { parseNumberFlag, printLines } from './output.js';
import { renderProgress } from './progress.js';

export function registerCompassInit(compass: Command): void {
  compass
    .command('init')
    .description(
      'a cases.jsonl skeleton for your own videos: one case per video, keyframe slots filled with its frames, prompts to fill in',
    )
    .requiredOption('--videos <dir>', 'your videos: <case_id>.mp4, or <model>/<case_id>__<prompt_mode>.mp4')
    .requiredOption(
      '--out <file>',
      'the cases.jsonl to write (a new file; keyframe images go to keyframes/ beside it)',
    )
    .option('--keyframes <n>', 'keyframe slots per case, ≥ 1 (the published set has 3, 6, 9 or 12)', '3')
    .action(async (o: { videos: string; out: string; keyframes: string }) => {
      const keyframes = parseNumberFlag('--keyframes', o.keyframes, (n) => Number.isInteger(n) && n >= 1);
      const shown = renderProgress();
      const r = await initCases({
        videos: o.videos,
        out: o.out,
        keyframes,
        onProgress: shown.onProgress,
      }).finally(() => shown.close());
      printLines([
        `wrote ${r.cases} case skeleton(s) to ${r.file} (keyframe images in ${r.keyframesDir})`,
        'next: replace every "TODO:" (prompts, story_summary) and each keyframe image with what your generator was given,',
        `then check it: npx kfbench compass validate --cases ${o.out}`,
      ]);
    });
}
