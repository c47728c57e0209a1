/** `kfbench hero init`: the dataset layout (movies.jsonl, clips.jsonl) for a user's own films. */
import { relative } from 'node:path';
import type { Command } from 'commander';
import { initHeroData } from '../hero/init.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import { printResult } from './output.js';

const INIT_FLAG_SPECS = flagSpecs({
  footage: {
    flags: '--footage <dir>',
    description: 'your films: <dir>/<movie_id>/<clip_id>.mp4, one folder per film, clips in file-name order',
    required: true,
  },
  out: { flags: '--out <dir>', description: 'the dataset root to write (its data/ folder)', required: true },
  ...JSON_FLAG_SPECS,
});

/** A path as the user would type it next: relative to the working folder when inside it. */
const shown = (p: string) => {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
};

export function registerHeroInit(hero: Command): void {
  const cmd = hero
    .command('init')
    .description(
      "the dataset layout for your own films: data/movies.jsonl and data/clips.jsonl from a footage folder (then the frame track's commands)",
    );
  addFlags(cmd, INIT_FLAG_SPECS).action(async (o: FlagValues<typeof INIT_FLAG_SPECS>) => {
    const r = await initHeroData({ footage: o.footage, out: o.out });
    const [footage, data] = [shown(r.footage), shown(r.data)];
    printResult(o.json, r, () => [
      `wrote ${r.films.length} film(s), ${r.films.reduce((a, f) => a + f.clips, 0)} clip(s) to ${data}/data (movies.jsonl, clips.jsonl); fill in each film's year and synopsis`,
      ...r.films.map((f) => `  ${f.movie_id}: ${f.clips} clip(s), ${f.seconds.toFixed(1)} s`),
      'next: the 1 fps frame track, its index, then a check',
      `  npx kfbench hero track rebuild --lsmdc ${footage} --data ${data} --out ${data}-track`,
      `  npx kfbench hero track make-index --track ${data}-track --data ${data}`,
      `  npx kfbench hero track verify --track ${data}-track --data ${data}`,
    ]);
  });
}
