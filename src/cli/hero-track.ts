/** `kfbench hero track …` (rebuild, verify, make-index) and `hero mini`: the shared 1 fps frame track and the generated sets. */
import type { Command } from 'commander';
import { BadInputError, PartialError } from '../errors.js';
import { makeIndex } from '../hero/track/make-index.js';
import { verifyTrack } from '../hero/track/verify.js';
import { buildMiniHero } from '../synthetic/mini-hero.js';
import { buildPublishedHero } from '../synthetic/published-hero.js';
import { parseMiniSize } from '../synthetic/published-size.js';
import { cliEnv } from './env.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS, type WithLayout } from './flags.js';
import type { CliImpls } from './impls.js';
import { addLayoutFlag } from './layout-flag.js';
import { parseNumberFlag, printJson, printLines } from './output.js';
import { renderProgress } from './progress.js';
import { parseShard } from './shard-flag.js';

const REBUILD_FLAG_SPECS = flagSpecs({
  lsmdc: { flags: '--lsmdc <dir>', description: 'footage: <dir>/<movie_id>/<clip_id>.<ext>', required: true },
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  out: { flags: '--out <dir>', description: 'track folder', required: true },
  movies: { flags: '--movies <ids...>', description: 'only these films' },
  jobs: { flags: '--jobs <n>', description: 'films in parallel', default: '1' },
  shard: { flags: '--shard <k/n>', description: 'take a deterministic k-th of n shards of the films' },
  quality: { flags: '--quality <q>', description: 'JPEG quality', default: '90' },
  ...JSON_FLAG_SPECS,
});

/** `kfbench hero track rebuild`. */
function registerRebuild(impls: CliImpls, track: Command): void {
  const cmd = track
    .command('rebuild')
    .description("extract every film's 1 fps frames as JPEG (resumable, parallel, shardable)");
  addLayoutFlag(addFlags(cmd, REBUILD_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof REBUILD_FLAG_SPECS>>) => {
      const shown = renderProgress();
      const r = await impls
        .rebuildTrack({
          lsmdc: o.lsmdc,
          data: o.data,
          layout: o.layout,
          out: o.out,
          movies: o.movies,
          jobs: parseNumberFlag('--jobs', o.jobs, (n) => Number.isInteger(n) && n >= 1),
          shard: o.shard ? parseShard(o.shard) : undefined,
          quality: parseNumberFlag('--quality', o.quality, (n) => n >= 1 && n <= 100),
          onProgress: shown.onProgress,
        })
        .finally(() => shown.close());
      if (o.json) printJson(r);
      else
        printLines([
          `rebuilt ${r.done.length} films (${r.frames} frames), ${r.skipped.length} already done, ${r.failed.length} failed; frames at the published coordinates (frame_track/track_index.jsonl.zst) for ${r.from_index.length} films, by the midpoint rule for the others`,
          ...r.failed.map((f) => `  ${f.movie_id}: ${f.reason}`),
        ]);
      if (r.failed.length)
        throw new PartialError(
          `${r.failed.length} film(s) failed: ${r.failed.map((f) => `${f.movie_id} (${f.reason})`).join('; ')}`,
          r.failed.map((f) => f.movie_id),
        );
    },
  );
}

const VERIFY_FLAG_SPECS = flagSpecs({
  track: { flags: '--track <dir>', description: 'track folder', required: true },
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  movies: { flags: '--movies <ids...>', description: 'only these films' },
  maxHamming: {
    flags: '--max-hamming <n>',
    description: 'largest Hamming distance (of 64) that counts as a match',
    default: '10',
  },
  ...JSON_FLAG_SPECS,
});

/** `kfbench hero track verify`. */
function registerVerify(track: Command): void {
  const cmd = track
    .command('verify')
    .description('recompute dHash on the listed frames and diagnose films that do not match');
  addLayoutFlag(addFlags(cmd, VERIFY_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof VERIFY_FLAG_SPECS>>) => {
      const r = await verifyTrack({
        track: o.track,
        data: o.data,
        layout: o.layout,
        movies: o.movies,
        maxHamming: parseNumberFlag(
          '--max-hamming',
          o.maxHamming,
          (n) => Number.isInteger(n) && n >= 0 && n <= 64,
        ),
      });
      if (o.json) printJson(r);
      else
        printLines(
          r.map(
            (v) =>
              `${v.status === 'ok' ? 'ok    ' : 'FAILED'} ${v.movie_id}  ${v.matched}/${v.checked} match${v.diagnosis ? `  — ${v.diagnosis}` : ''}`,
          ),
        );
      const failed = r.filter((v) => v.status !== 'ok');
      if (failed.length)
        throw new BadInputError(
          `${failed.length} film(s) failed verification: ${failed.map((f) => f.movie_id).join(', ')}`,
          { file: o.track },
        );
    },
  );
}

const MAKE_INDEX_FLAG_SPECS = flagSpecs({
  track: { flags: '--track <dir>', description: 'track folder', required: true },
  data: {
    flags: '--data <dir>',
    description: 'dataset root (written into its frame_track/)',
    required: true,
  },
  ...JSON_FLAG_SPECS,
});

/** `kfbench hero track make-index`. */
function registerMakeIndex(track: Command): void {
  const cmd = track
    .command('make-index')
    .description('write frame_track/track_index.jsonl.zst and verify_dhash.jsonl.zst for a rebuilt track');
  addLayoutFlag(addFlags(cmd, MAKE_INDEX_FLAG_SPECS)).action(
    async (o: WithLayout<FlagValues<typeof MAKE_INDEX_FLAG_SPECS>>) => {
      const r = await makeIndex({ track: o.track, data: o.data, layout: o.layout });
      if (o.json) printJson(r);
      else printLines([`indexed ${r.frames} frames of ${r.films} films; ${r.verify} verify hashes`]);
    },
  );
}

const MINI_FLAG_SPECS = flagSpecs({
  out: { flags: '--out <dir>', description: 'where to build it', required: true },
  size: {
    flags: '--size <size>',
    description:
      'mini, or published (204 films, ~2,031 chains, ~500,000 track rows; no footage) or a fraction of it (1/8, 0.25): for scale benchmarks',
    default: 'mini',
  },
  ...JSON_FLAG_SPECS,
});

/** `kfbench hero mini`. */
function registerMini(hero: Command): void {
  const cmd = hero
    .command('mini')
    .description('build the mini HeroFrame set (generated films, footage, stills, track) if absent');
  addFlags(cmd, MINI_FLAG_SPECS).action(async (o: FlagValues<typeof MINI_FLAG_SPECS>) => {
    const size = parseMiniSize(o.size);
    const shown = renderProgress();
    if (size.kind === 'published') {
      const p = await buildPublishedHero(o.out, {
        fraction: size.fraction,
        onProgress: shown.onProgress,
      }).finally(() => shown.close());
      if (o.json) printJson(p);
      else
        printLines([
          `dataset    ${p.data} (${p.counts.films} films, ${p.counts.chains} chains, ${p.counts.images} images, ${p.counts.track_frames} track rows)`,
          `track      ${p.track} (the verify and selected frames only)`,
          `selections ${p.selections}`,
        ]);
      return;
    }
    const p = await buildMiniHero(o.out, {
      onProgress: shown.onProgress,
      materialCache: cliEnv().materialCache,
    }).finally(() => shown.close());
    if (o.json) printJson(p);
    else printLines([`dataset ${p.data}`, `footage ${p.lsmdc}`, `stills  ${p.stills}`, `track   ${p.track}`]);
  });
}

export function registerHeroTrack(hero: Command, impls: CliImpls): void {
  const track = hero.command('track').description('the shared 1 fps frame track');
  registerRebuild(impls, track);
  registerVerify(track);
  registerMakeIndex(track);
  registerMini(hero);
}
