/** `kfbench hero frames …`: times in a film or a clip → frame indices of the 1 fps track. */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { locateFrames } from '../hero/track/locate.js';
import { addFlags, type FlagValues, flagSpecs, type WithLayout } from './flags.js';
import { addLayoutFlag } from './layout-flag.js';
import { printJson, printLines } from './output.js';

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const LOCATE_FLAG_SPECS = flagSpecs({
  data: { flags: '--data <dir>', description: 'dataset root (reads data/clips.jsonl)', required: true },
  movie: { flags: '--movie <id>', description: 'a film (with --time)' },
  time: {
    flags: '--time <t,…>',
    description:
      "seconds on the film's timeline (clips concatenated in clips.jsonl order), or hh:mm:ss.fff; a comma list for several",
  },
  clip: { flags: '--clip <id>', description: 'a clip (with --t)' },
  t: {
    flags: '--t <s,…>',
    description: "seconds from the clip's own start, or hh:mm:ss.fff; a comma list for several",
  },
  json: {
    flags: '--json',
    description: 'print JSON: movie_id, time_s, frame_idx, clip_id, t_in_clip, offset_s per time',
  },
});

export function registerHeroFrames(hero: Command): void {
  const frames = hero.command('frames').description('the track frames behind times in a film or a clip');
  const locate = frames
    .command('locate')
    .description(
      "print the frame_idx of the track frame at a time on a film's timeline (--movie, --time) or in a clip (--clip, --t)",
    );
  addLayoutFlag(addFlags(locate, LOCATE_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof LOCATE_FLAG_SPECS>>) => {
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
