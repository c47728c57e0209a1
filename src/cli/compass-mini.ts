/** `kfbench compass mini`: the mini Compass set (or a published-size one, for scale benchmarks). */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { buildMiniCompass } from '../synthetic/mini-compass/build.js';
import { buildPublishedCompass } from '../synthetic/published-compass.js';
import { parseMiniSize } from '../synthetic/published-size.js';
import { cliEnv } from './env.js';
import { addFlags, type FlagValues, flagSpecs } from './flags.js';
import { printLines } from './output.js';
import { renderProgress } from './progress.js';

const MINI_FLAG_SPECS = flagSpecs({
  out: { flags: '--out <dir>', description: 'where to build it', required: true },
  size: {
    flags: '--size <size>',
    description:
      'mini, or published (386 cases × 2 prompt modes, model faithful, 160×90 videos) or a fraction of it (1/8, 0.25): for scale benchmarks',
    default: 'mini',
  },
});

export function registerCompassMini(compass: Command): void {
  const cmd = compass
    .command('mini')
    .description('build the mini Compass set: 8 cases, 7 fault "models", both prompt modes');
  addFlags(cmd, MINI_FLAG_SPECS).action(async (o: FlagValues<typeof MINI_FLAG_SPECS>) => {
    const size = parseMiniSize(o.size);
    const shown = renderProgress();
    if (size.kind === 'published') {
      const p = await buildPublishedCompass(resolve(o.out), {
        fraction: size.fraction,
        onProgress: shown.onProgress,
      }).finally(() => shown.close());
      printLines([
        `cases   ${p.cases} (${p.counts.cases})`,
        `videos  ${p.videos} (${p.model}, ${p.counts.videos})`,
      ]);
      return;
    }
    const p = await buildMiniCompass(resolve(o.out), {
      onProgress: shown.onProgress,
      materialCache: cliEnv().materialCache,
    }).finally(() => shown.close());
    printLines([`cases   ${p.cases}`, `videos  ${p.videos} (${p.models.join(', ')})`]);
  });
}
