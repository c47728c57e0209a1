/** `kfbench hero frames …`: times in a film or a clip → frame indices of the 1 fps track. */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { Layout } from '../hero/dataset/layout-map.js';
import { locateFrames } from '../hero/track/locate.js';
import { printJson, printLines } from './output.js';

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export function registerHeroFrames(hero: Command): void {
  const frames = hero.command('frames').description('the track frames behind times in a film or a clip');
  frames
    .command('locate')
    .description(
      "print the frame_idx of the track frame at a time on a film's timeline (--movie, --time) or in a clip (--clip, --t)",
    )
    .requiredOption('--data <dir>', 'dataset root (reads data/clips.jsonl)')
    .option('--movie <id>', 'a film (with --time)')
    .option(
      '--time <t,…>',
      "seconds on the film's timeline (clips concatenated in clips.jsonl order), or hh:mm:ss.fff; a comma list for several",
    )
    .option('--clip <id>', 'a clip (with --t)')
    .option('--t <s,…>', "seconds from the clip's own start, or hh:mm:ss.fff; a comma list for several")
    .option('--json', 'print JSON: movie_id, time_s, frame_idx, clip_id, t_in_clip, offset_s per time')
    .action(
      async (o: {
        data: string;
        /** The layout map, resolved by program.ts from --layout or KFBENCH_HERO_LAYOUT. */
        layout: Layout;
        movie?: string;
        time?: string;
        clip?: string;
        t?: string;
        json?: boolean;
      }) => {
        const byMovie = o.movie !== undefined || o.time !== undefined;
        const byClip = o.clip !== undefined || o.t !== undefined;
        if (byMovie === byClip || (byMovie && (!o.movie || !o.time)) || (byClip && (!o.clip || !o.t)))
          throw new UsageError('give either --movie ID --time T or --clip ID --t T');
        const times = list((byMovie ? o.time : o.t) ?? '');
        if (!times.length) throw new UsageError(`${byMovie ? '--time' : '--t'} names no time`);
        const found = await locateFrames(
          o.data,
          o.layout,
          byMovie ? { movie: o.movie!, times } : { clip: o.clip!, times },
        );
        if (o.json) return printJson(found);
        printLines(found.map((f) => String(f.frame_idx)));
      },
    );
}
