/** `kfbench compass init`: a cases.jsonl skeleton for your own videos. */
import type { Command } from 'commander';
import { initCases } from '../compass/cases/init.js';
import { addFlags, type FlagValues, flagSpecs } from './flags.js';
import { parseNumberFlag, printLines } from './output.js';
import { renderProgress } from './progress.js';

const INIT_FLAG_SPECS = flagSpecs({
  videos: {
    flags: '--videos <dir>',
    description: 'your videos: <case_id>.mp4, or <model>/<case_id>__<prompt_mode>.mp4',
    required: true,
  },
  out: {
    flags: '--out <file>',
    description: 'the cases.jsonl to write (a new file; keyframe images go to keyframes/ beside it)',
    required: true,
  },
  keyframes: {
    flags: '--keyframes <n>',
    description: 'keyframe slots per case, ≥ 1 (the published set has 3, 6, 9 or 12)',
    default: '3',
  },
});

export function registerCompassInit(compass: Command): void {
  const cmd = compass
    .command('init')
    .description(
      'a cases.jsonl skeleton for your own videos: one case per video, keyframe slots filled with its frames, prompts to fill in',
    );
  addFlags(cmd, INIT_FLAG_SPECS).action(async (o: FlagValues<typeof INIT_FLAG_SPECS>) => {
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
