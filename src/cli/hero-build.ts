/** `kfbench hero build`: chains for your films, judged in both placements (Bradley–Terry, still floor). */
import type { Command } from 'commander';
import type { Layout } from '../hero/dataset/layout-map.js';
import { roundTotals } from '../hero/rubric-learn.js';
import type { CliImpls } from './impls.js';
import { type JudgeFlagValues, judgeOptions, judgeSettings } from './judge.js';
import { parseNumberFlag, printJson, printLines } from './output.js';
import { renderProgress } from './progress.js';

/** `hero build`’s flags as commander gives them. */
interface BuildFlags extends JudgeFlagValues {
  data: string;
  /** The layout map, resolved by program.ts from --layout or KFBENCH_HERO_LAYOUT. */
  layout: Layout;
  lsmdc: string;
  stills: string;
  chainsPerFilm: string;
  seed: string;
  learnRubric?: boolean;
  rounds: string;
  maxRules: string;
  json?: boolean;
}

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
  judgeOptions(
    hero
      .command('build')
      .description(
        'build chains for your films: a still and five off-grid frames, judged in both placements, Bradley–Terry, still floor',
      ),
  )
    .requiredOption(
      '--data <dir>',
      'dataset root (movies.jsonl, clips.jsonl; chains.jsonl and images/ are written)',
    )
    .requiredOption('--lsmdc <dir>', 'footage: <dir>/<movie_id>/<clip_id>.<ext>')
    .requiredOption('--stills <dir>', 'publicity stills: <dir>/<movie_id>/<image_id>.jpg')
    .option('--chains-per-film <n>', 'chains per film', '10')
    .option('--seed <s>', 'seed', '0')
    .option(
      '--learn-rubric',
      "learn each film's rubric first (rounds of proposals through two admission gates)",
    )
    .option('--rounds <n>', 'rubric-learning rounds (stop early when one admits nothing)', '2')
    .option('--max-rules <n>', 'at most this many rules per film', '20')
    .option('--json', 'print JSON')
    .action((o: BuildFlags) => runBuild(o, impls));
}
