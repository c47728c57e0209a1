/** `kfbench hero build`: chains for your films, judged in both placements (Bradley–Terry, still floor). */
import type { Command } from 'commander';
import { UNRESOLVED_PAIRS_READINGS } from '../hero/build/options.js';
import { roundTotals } from '../hero/rubric-learn.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS, type WithLayout } from './flags.js';
import type { CliImpls } from './impls.js';
import { judgeFlagSpecs, judgeSettings } from './judge.js';
import { addLayoutFlag } from './layout-flag.js';
import { oneOf, parseNumberFlag, printJson, printLines } from './output.js';
import { renderProgress } from './progress.js';

/** `hero build`'s flags and their help, declared once: the parsed options' type is inferred from them. */
const BUILD_FLAG_SPECS = flagSpecs({
  ...judgeFlagSpecs(),
  data: {
    flags: '--data <dir>',
    description: 'dataset root (movies.jsonl, clips.jsonl; chains.jsonl and images/ are written)',
    required: true,
  },
  lsmdc: { flags: '--lsmdc <dir>', description: 'footage: <dir>/<movie_id>/<clip_id>.<ext>', required: true },
  stills: {
    flags: '--stills <dir>',
    description: 'publicity stills: <dir>/<movie_id>/<image_id>.jpg',
    required: true,
  },
  chainsPerFilm: { flags: '--chains-per-film <n>', description: 'chains per film', default: '10' },
  seed: { flags: '--seed <s>', description: 'seed', default: '0' },
  learnRubric: {
    flags: '--learn-rubric',
    description: "learn each film's rubric first (rounds of proposals through two admission gates)",
  },
  rounds: {
    flags: '--rounds <n>',
    description: 'rubric-learning rounds (stop early when one admits nothing)',
    default: '2',
  },
  maxRules: { flags: '--max-rules <n>', description: 'at most this many rules per film', default: '20' },
  unresolvedPairs: {
    flags: '--unresolved-pairs <how>',
    description:
      "an unresolved pair in a chain's Bradley–Terry fit: error (left out: the card's no partial credit) | tie (half a win each)",
    default: 'error',
  },
  ...JSON_FLAG_SPECS,
});

type BuildFlags = WithLayout<FlagValues<typeof BUILD_FLAG_SPECS>>;

async function runBuild(o: BuildFlags, impls: CliImpls): Promise<void> {
  const chainsPerFilm = parseNumberFlag(
    '--chains-per-film',
    o.chainsPerFilm,
    (n) => Number.isInteger(n) && n >= 1,
  );
  const rounds = parseNumberFlag('--rounds', o.rounds, (n) => Number.isInteger(n) && n >= 1);
  const maxRules = parseNumberFlag('--max-rules', o.maxRules, (n) => Number.isInteger(n) && n >= 1);
  const shown = renderProgress();
  const r = await impls
    .buildChains({
      judge: judgeSettings(o),
      data: o.data,
      layout: o.layout,
      lsmdc: o.lsmdc,
      stills: o.stills,
      chainsPerFilm,
      seed: o.seed,
      learnRubric: !!o.learnRubric,
      rounds,
      maxRules,
      ...(o.unresolvedPairs !== 'error'
        ? { unresolvedPairs: oneOf('--unresolved-pairs', o.unresolvedPairs, UNRESOLVED_PAIRS_READINGS) }
        : {}),
      onProgress: shown.onProgress,
    })
    .finally(() => shown.close());
  if (o.json) printJson(r);
  else
    printLines([
      `built ${r.chains} chains for ${r.films} films with ${r.reader}: ${r.pairs} pairs, ${(100 * r.confident_share).toFixed(1)} % confident, ${r.still_replacements} still replacements, ${r.still_floor_unmet} chains kept with the still floor unmet (no still left), ridge in ${r.ridge_used} chains`,
      `stability on ${r.stability.chains} chains re-judged with the letters swapped between the images: agreement ${r.stability.agreement === null ? '—' : `${(100 * r.stability.agreement).toFixed(1)} %`}, Kendall τ ${r.stability.kendall_tau?.toFixed(3) ?? '—'}`,
      ...(r.rubric
        ? [
            `rubric: ${r.rubric.rules} rules kept, ${r.rubric.pruned_by_phase_b} pruned by Phase B; per round ${roundTotals(
              r.rubric.rounds,
            )
              .map(
                (t) =>
                  `round ${t.round}: ${t.proposals} proposals, ${t.admitted} admitted, rejection ${(100 * t.rejection_rate).toFixed(1)} % (gate 1 ${t.rejected_gate1}, gate 2 ${t.rejected_gate2})`,
              )
              .join('; ')}`,
          ]
        : []),
    ]);
}

export function registerHeroBuild(hero: Command, impls: CliImpls): void {
  const cmd = hero
    .command('build')
    .description(
      'build chains for your films: a still and five off-grid frames, judged in both placements, Bradley–Terry, still floor',
    );
  addLayoutFlag(addFlags(cmd, BUILD_FLAG_SPECS)).action((o: BuildFlags) => runBuild(o, impls));
}
