/** `kfbench hero …`: the HeroFrame benchmark. */

import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { buildMiniHero } from '../dev/mini-hero.js';
import { createEmbedder } from '../embed/registry.js';
import { BadInputError, PartialError, UsageError } from '../errors.js';
import { corpusStats } from '../hero/analyze/corpus.js';
import { humanAgreement, rubricSwap } from '../hero/analyze/judge-agreement.js';
import { positionAnalysis } from '../hero/analyze/position.js';
import { buildChains } from '../hero/build.js';
import { loadCore } from '../hero/dataset/load.js';
import { checkSelections } from '../hero/dataset/selections.js';
import { validateDataset } from '../hero/dataset/validate.js';
import { evaluate } from '../hero/evaluate.js';
import { heroShardRecord } from '../hero/merge.js';
import { checkReader, checkReaderListwise, fitHeroReader } from '../hero/reader.js';
import { METHODS, methodByName } from '../hero/select/registry.js';
import { runSelection } from '../hero/select/run.js';
import { makeIndex } from '../hero/track/make-index.js';
import { rebuildTrack } from '../hero/track/rebuild.js';
import { parseShard } from '../hero/track/shard.js';
import { verifyTrack } from '../hero/track/verify.js';
import { judgeIdentity } from '../judge/identity.js';
import {
  DISAGREEMENT_RULES,
  type DisagreementRule,
  INSERTION_PROTOCOLS,
  type InsertionProtocol,
} from '../judge/insertion.js';
import { writeReaderFile } from '../judge/local.js';
import { openJudge, resolveJudgeSettings } from '../judge/registry.js';
import { heroTable } from '../report/hero.js';
import { writeEvaluation } from '../report/hero-outputs.js';
import { writeShardRecord } from '../store/shards.js';
import { onnxFlags } from './embed.js';
import { registerHeroFrames } from './hero-frames.js';
import { interruptSignal } from './interrupt.js';
import { judgeFlags, judgeOptions } from './judge.js';
import { parseNumberFlag, printJson, printLines } from './output.js';
import { progress } from './progress.js';

export function registerHero(program: Command): void {
  const hero = program
    .command('hero')
    .description('HeroFrame: key-frame selection scored by chain insertion');

  const analyze = hero.command('analyze').description('analyses of a HeroFrame dataset and its judge');
  analyze
    .command('corpus')
    .description('corpus statistics: films, chains, images, criteria, confident share, still ranks')
    .requiredOption('--data <dir>', 'dataset root')
    .option('--json', 'print JSON')
    .action(async (o: { data: string; json?: boolean }) => {
      const r = await corpusStats(o.data);
      if (o.json) return printJson(r);
      printLines([
        `${r.films} films, ${r.chains} chains, ${r.images} distinct images, ${r.pairs} pairs (${(100 * r.confident_share).toFixed(1)} % confident)`,
        `criteria per film: ${r.criteria_per_film ? `mean ${r.criteria_per_film.mean.toFixed(2)} (${r.criteria_per_film.min}–${r.criteria_per_film.max})` : 'no rubrics'}`,
        `still replacements: ${r.still_replacements ?? 'unknown (the chains were not built by kfbench hero build)'}`,
        `rank of the still in its chain: ${Object.entries(r.still_rank)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}`,
      ]);
    });
  analyze
    .command('position')
    .description("sampled frames' normalised film time against their chain rank")
    .requiredOption('--data <dir>', 'dataset root')
    .option('--json', 'print JSON')
    .action(async (o: { data: string; json?: boolean }) => {
      const r = await positionAnalysis(o.data);
      if (o.json) return printJson(r);
      const sp = r.spearman;
      const p = sp.p_exact ?? sp.p_asymptotic;
      printLines([
        `${r.images} sampled chain images; Spearman ρ(rank, film time) ${sp.rho === null ? '—' : sp.rho.toFixed(3)}${p !== undefined ? ` (p ${sp.p_exact !== undefined ? 'exact' : 'asymptotic'} ${p.toFixed(3)})` : ''}`,
        ...r.by_rank.map(
          (b) => `rank ${b.rank}: ${b.n} images, mean normalised time ${b.mean_time.toFixed(3)}`,
        ),
      ]);
    });

  judgeOptions(
    analyze
      .command('human')
      .description("the judge's agreement with human pairwise choices, without and with the film's rubric")
      .requiredOption('--pairs <file>', 'JSONL {movie_id, a, b, human_winner}')
      .requiredOption('--data <dir>', 'dataset root')
      .option('--json', 'print JSON'),
  ).action(async (o: Parameters<typeof judgeFlags>[0] & { pairs: string; data: string; json?: boolean }) => {
    const j = await openJudge(resolveJudgeSettings(judgeFlags(o)));
    try {
      const r = await humanAgreement({ root: o.data, judge: j.judge, encoder: j.encoder }, o.pairs);
      if (o.json) return printJson({ ...r, reader: j.judge.name });
      const line = (name: string, a: typeof r.with_rubric) =>
        `${name}: ${a.correct}/${a.n} = ${(100 * a.rate).toFixed(1)} % (95 % Wilson ${(100 * a.ci[0]).toFixed(1)}–${(100 * a.ci[1]).toFixed(1)} %)`;
      printLines([
        `reader ${j.judge.name}; unresolved comparisons count as errors`,
        line('without the rubric', r.without_rubric),
        line('with the rubric   ', r.with_rubric),
        `McNemar (${r.mcnemar.method}): b = ${r.mcnemar.b}, c = ${r.mcnemar.c}, p = ${r.mcnemar.p.toFixed(4)}`,
      ]);
    } finally {
      await j.close();
    }
  });
  judgeOptions(
    analyze
      .command('rubric-swap')
      .description("own rubric vs another film's vs none: agreement with the chains' confident pairs")
      .requiredOption('--data <dir>', 'dataset root')
      .option('--seed <s>', 'seed of the derangement and the permutation test', '0')
      .option('--json', 'print JSON'),
  ).action(async (o: Parameters<typeof judgeFlags>[0] & { data: string; seed: string; json?: boolean }) => {
    const j = await openJudge(resolveJudgeSettings(judgeFlags(o)));
    try {
      const r = await rubricSwap({ root: o.data, judge: j.judge, encoder: j.encoder }, o.seed);
      if (o.json) return printJson({ ...r, reader: j.judge.name });
      const pc = (a: typeof r.own) => `${(100 * a.rate).toFixed(1)} %`;
      printLines([
        `reader ${j.judge.name}; ${r.pairs} confident chain pairs; each film served another's rubric by a seeded derangement`,
        `own rubric ${pc(r.own)}, swapped ${pc(r.swapped)}, none ${pc(r.none)}`,
        `own vs swapped: p = ${r.p_own_vs_swapped.p.toFixed(4)} (${r.p_own_vs_swapped.exact ? 'exact' : 'sampled'}); swapped vs none: p = ${r.p_swapped_vs_none.p.toFixed(4)} (${r.p_swapped_vs_none.exact ? 'exact' : 'sampled'})`,
      ]);
    } finally {
      await j.close();
    }
  });

  hero
    .command('validate')
    .description('check a dataset root in the published layout; every problem as file:line')
    .requiredOption('--data <dir>', 'dataset root')
    .option('--json', 'print JSON')
    .action(async (o: { data: string; json?: boolean }) => {
      const r = await validateDataset(o.data);
      const s = r.summary;
      if (o.json) printJson(r);
      else
        printLines([
          `${s.films} films, ${s.chains} chains, ${s.images} images, ${s.criteria} criteria, ${s.pairs} pairs (${(100 * s.confident_share).toFixed(1)} % confident), ${s.track_frames} track frames, ${s.verify_rows} verify hashes`,
          ...(s.absent.length ? [`absent (optional): ${s.absent.join(', ')}`] : []),
        ]);
      for (const p of r.problems) process.stderr.write(`${p}\n`);
      if (r.problems.length)
        throw new BadInputError(
          `${r.problems.length} problem${r.problems.length > 1 ? 's' : ''} in ${o.data}`,
        );
    });

  hero
    .command('check-selections')
    .description("check a method's selections file against the dataset")
    .argument('<file>')
    .requiredOption('--data <dir>', 'dataset root')
    .option('--json', 'print JSON')
    .action(async (file: string, o: { data: string; json?: boolean }) => {
      const ds = await loadCore(o.data);
      const r = await checkSelections(file, ds.timelines);
      if (o.json)
        printJson({
          films: r.selections.size,
          frames: [...r.selections.values()].reduce((a, f) => a + f.length, 0),
          problems: r.problems,
        });
      else
        printLines([
          `${r.selections.size} films, ${[...r.selections.values()].reduce((a, f) => a + f.length, 0)} frames`,
        ]);
      for (const p of r.problems) process.stderr.write(`${p}\n`);
      if (r.problems.length)
        throw new BadInputError(`${r.problems.length} problem${r.problems.length > 1 ? 's' : ''}`, { file });
    });

  registerHeroFrames(hero);

  const track = hero.command('track').description('the shared 1 fps frame track');
  track
    .command('rebuild')
    .description("extract every film's 1 fps frames as JPEG (resumable, parallel, shardable)")
    .requiredOption('--lsmdc <dir>', 'footage: <dir>/<movie_id>/<clip_id>.<ext>')
    .requiredOption('--data <dir>', 'dataset root')
    .requiredOption('--out <dir>', 'track folder')
    .option('--movies <ids...>', 'only these films')
    .option('--jobs <n>', 'films in parallel', '1')
    .option('--shard <k/n>', 'take a deterministic k-th of n shards of the films')
    .option('--quality <q>', 'JPEG quality', '90')
    .option('--json', 'print JSON')
    .action(
      async (o: {
        lsmdc: string;
        data: string;
        out: string;
        movies?: string[];
        jobs: string;
        shard?: string;
        quality: string;
        json?: boolean;
      }) => {
        const bar = progress('frames');
        let done = 0;
        let films = 0;
        const r = await rebuildTrack({
          lsmdc: o.lsmdc,
          data: o.data,
          out: o.out,
          movies: o.movies,
          jobs: parseNumberFlag('--jobs', o.jobs, (n) => Number.isInteger(n) && n >= 1),
          shard: o.shard ? parseShard(o.shard) : undefined,
          quality: parseNumberFlag('--quality', o.quality, (n) => n >= 1 && n <= 100),
          onEvent: (e) => {
            if (e.type === 'start') {
              films = e.films;
              bar.start(e.frames, `rebuild (${e.films} films, ${e.skipped} already done)`);
            } else if (e.type === 'frames') bar.update(++done);
            else if (e.type === 'film-done') bar.update(done, `${e.movie_id} done`);
            else if (e.type === 'film-failed') bar.update(done, `${e.movie_id} FAILED`);
          },
        });
        bar.stop();
        void films;
        if (o.json) printJson(r);
        else
          printLines([
            `rebuilt ${r.done.length} films (${r.frames} frames), ${r.skipped.length} already done, ${r.failed.length} failed`,
            ...r.failed.map((f) => `  ${f.movie_id}: ${f.reason}`),
          ]);
        if (r.failed.length)
          throw new PartialError(
            `${r.failed.length} film(s) failed: ${r.failed.map((f) => `${f.movie_id} (${f.reason})`).join('; ')}`,
            r.failed.map((f) => f.movie_id),
          );
      },
    );

  track
    .command('verify')
    .description('recompute dHash on the listed frames and diagnose films that do not match')
    .requiredOption('--track <dir>', 'track folder')
    .requiredOption('--data <dir>', 'dataset root')
    .option('--movies <ids...>', 'only these films')
    .option('--max-hamming <n>', 'largest Hamming distance (of 64) that counts as a match', '10')
    .option('--json', 'print JSON')
    .action(
      async (o: { track: string; data: string; movies?: string[]; maxHamming: string; json?: boolean }) => {
        const r = await verifyTrack({
          track: o.track,
          data: o.data,
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

  track
    .command('make-index')
    .description('write frame_track/track_index.jsonl.zst and verify_dhash.jsonl.zst for a rebuilt track')
    .requiredOption('--track <dir>', 'track folder')
    .requiredOption('--data <dir>', 'dataset root (written into its frame_track/)')
    .option('--json', 'print JSON')
    .action(async (o: { track: string; data: string; json?: boolean }) => {
      const r = await makeIndex({ track: o.track, data: o.data });
      if (o.json) printJson(r);
      else printLines([`indexed ${r.frames} frames of ${r.films} films; ${r.verify} verify hashes`]);
    });

  judgeOptions(
    hero
      .command('select')
      .description(
        `run a key-frame selection method on every film: ${METHODS.map((m) => m.name).join(', ')}`,
      ),
  )
    .requiredOption('--method <name>', 'selection method')
    .requiredOption('--data <dir>', 'dataset root')
    .requiredOption('--track <dir>', 'the rebuilt 1 fps track')
    .requiredOption('--out <file>', 'selections JSONL to write')
    .option('--lsmdc <dir>', 'full-rate clips (shot-centre)')
    .option('--embedder <spec>', 'builtin | onnx:PATH (cluster)', 'builtin')
    .option('--threads <n>', 'ONNX intra-op threads (default: every core)')
    .option('--device <d>', 'ONNX device: cpu | cuda', 'cpu')
    .option('--k <n>', 'frames per film (1–5)', '5')
    .option('--seed <s>', 'seed', '0')
    .option('--movies <ids...>', 'only these films')
    .option('--json', 'print JSON')
    .action(
      async (
        o: Parameters<typeof judgeFlags>[0] & {
          method: string;
          data: string;
          track: string;
          out: string;
          lsmdc?: string;
          embedder: string;
          threads?: string;
          device?: string;
          k: string;
          seed: string;
          movies?: string[];
          json?: boolean;
        },
      ) => {
        const method = methodByName(o.method);
        // like every other command: --judge, else "judge" in --config, else KFBENCH_JUDGE
        const j = method.needs?.judge ? await openJudge(resolveJudgeSettings(judgeFlags(o))) : undefined;
        const embedder = method.needs?.embedder ? await createEmbedder(o.embedder, onnxFlags(o)) : undefined;
        try {
          const r = await runSelection({
            method,
            data: o.data,
            track: o.track,
            out: o.out,
            lsmdc: o.lsmdc,
            ...(j ? { judge: { judge: j.judge, encoder: j.encoder } } : {}),
            ...(embedder ? { embedder } : {}),
            k: parseNumberFlag('--k', o.k, (n) => Number.isInteger(n) && n >= 1 && n <= 5),
            seed: o.seed,
            movies: o.movies,
          });
          if (o.json) printJson({ method: method.name, out: o.out, ...r });
          else printLines([`${method.name}: ${r.frames} frames for ${r.films} films → ${o.out}`]);
        } finally {
          await j?.close();
          await embedder?.close();
        }
      },
    );

  hero
    .command('fit-reader')
    .description(
      'fit the local reader (Bradley–Terry over embedder features) on every film’s confident pairs',
    )
    .requiredOption('--data <dir>', 'dataset root')
    .requiredOption('--out <file>', 'reader.json to write')
    .option('--embedder <spec>', 'builtin | onnx:PATH', 'builtin')
    .option('--threads <n>', 'ONNX intra-op threads (default: every core)')
    .option('--device <d>', 'ONNX device: cpu | cuda', 'cpu')
    .option('--lambda <x>', 'L2 penalty', '1')
    .option('--json', 'print JSON')
    .action(
      async (o: {
        data: string;
        out: string;
        embedder: string;
        threads?: string;
        device?: string;
        lambda: string;
        json?: boolean;
      }) => {
        const r = await fitHeroReader({
          data: o.data,
          embedder: o.embedder,
          embedderOptions: onnxFlags(o),
          lambda: parseNumberFlag('--lambda', o.lambda, (n) => n > 0),
        });
        await writeReaderFile(o.out, r.reader);
        const out = {
          out: o.out,
          films: r.films,
          pairs: r.pairs,
          cv_agreement: r.cv_agreement,
          folds: r.folds,
        };
        if (o.json) printJson(out);
        else
          printLines([
            `fitted on ${r.pairs} confident pairs of ${r.films} films → ${o.out}`,
            `5-fold cross-validated agreement (folds by film): ${(100 * r.cv_agreement).toFixed(1)} %`,
          ]);
      },
    );

  judgeOptions(
    hero.command('check-reader').description("a reader's agreement with the chains, before trusting it"),
  )
    .requiredOption('--data <dir>', 'dataset root')
    .option(
      '--protocol <p>',
      'listwise (each chain image re-inserted into its chain) | pairwise (the confident pairs)',
      'listwise',
    )
    .option('--sample <n>', 'a seeded sample of this many pairs (default: all)')
    .option('--seed <s>', 'seed', '0')
    .option('--json', 'print JSON')
    .action(
      async (
        o: Parameters<typeof judgeFlags>[0] & {
          data: string;
          protocol: string;
          sample?: string;
          seed: string;
          json?: boolean;
        },
      ) => {
        if (o.protocol !== 'listwise' && o.protocol !== 'pairwise')
          throw new UsageError('--protocol must be listwise or pairwise');
        const j = await openJudge(resolveJudgeSettings(judgeFlags(o)));
        try {
          const sample =
            o.sample === undefined
              ? undefined
              : parseNumberFlag('--sample', o.sample, (n) => Number.isInteger(n) && n > 0);
          const opts = {
            data: o.data,
            judge: j.judge,
            encoder: j.encoder,
            ...(sample ? { sample } : {}),
            seed: o.seed,
          };
          if (o.protocol === 'listwise') {
            const r = await checkReaderListwise(opts);
            if (o.json) printJson(r);
            else
              printLines([
                `${r.reader}, listwise: places ${r.agree}/${r.insertions} chain images exactly where their chain has them = ${(100 * r.agreement).toFixed(1)} % (95 % Wilson ${(100 * r.ci[0]).toFixed(1)}–${(100 * r.ci[1]).toFixed(1)} %), ${(100 * r.within_one).toFixed(1)} % within one position, mean |error| ${r.mean_abs_error.toFixed(2)}, ${r.unresolved} unresolved`,
              ]);
            return;
          }
          const r = await checkReader(opts);
          if (o.json) printJson(r);
          else
            printLines([
              `${r.reader}: agrees on ${r.agree}/${r.pairs} confident pairs = ${(100 * r.agreement).toFixed(1)} % (95 % Wilson ${(100 * r.ci[0]).toFixed(1)}–${(100 * r.ci[1]).toFixed(1)} %), ${r.unresolved} unresolved`,
            ]);
        } finally {
          await j.close();
        }
      },
    );

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
    .action(
      async (
        o: Parameters<typeof judgeFlags>[0] & {
          data: string;
          lsmdc: string;
          stills: string;
          chainsPerFilm: string;
          seed: string;
          learnRubric?: boolean;
          rounds: string;
          maxRules: string;
          json?: boolean;
        },
      ) => {
        const j = await openJudge(resolveJudgeSettings(judgeFlags(o)));
        const bar = progress('films');
        try {
          let started = false;
          const r = await buildChains({
            data: o.data,
            lsmdc: o.lsmdc,
            stills: o.stills,
            judge: j.judge,
            encoder: j.encoder,
            chainsPerFilm: parseNumberFlag(
              '--chains-per-film',
              o.chainsPerFilm,
              (n) => Number.isInteger(n) && n >= 1,
            ),
            seed: o.seed,
            learnRubric: !!o.learnRubric,
            rounds: parseNumberFlag('--rounds', o.rounds, (n) => Number.isInteger(n) && n >= 1),
            maxRules: parseNumberFlag('--max-rules', o.maxRules, (n) => Number.isInteger(n) && n >= 1),
            onEvent: (e) => {
              if (!started) {
                bar.start(e.total, 'build');
                started = true;
              }
              bar.update(e.done, e.movie_id);
            },
          });
          bar.stop();
          if (o.json)
            printJson({
              ...r,
              reader: j.judge.name,
              calls: j.judge.stats.calls,
              cached: j.judge.stats.cached,
            });
          else
            printLines([
              `built ${r.chains} chains for ${r.films} films with ${j.judge.name}: ${r.pairs} pairs, ${(100 * r.confident_share).toFixed(1)} % confident, ${r.still_replacements} still replacements, ${r.still_floor_unmet} chains kept with the still floor unmet (no still left), ridge in ${r.ridge_used} chains`,
              `stability on ${r.stability.chains} chains re-judged with the letters swapped between the images: agreement ${(100 * r.stability.agreement).toFixed(1)} %, Kendall τ ${r.stability.kendall_tau.toFixed(3)}`,
              ...(r.rubric
                ? [
                    `rubric: ${r.rubric.rules} rules kept, ${r.rubric.pruned_by_phase_b} pruned by Phase B; per round ${[
                      ...new Set(r.rubric.rounds.map((x) => x.round)),
                    ]
                      .map((k) => {
                        const rs = r.rubric!.rounds.filter((x) => x.round === k);
                        const sum = (f: (x: (typeof rs)[number]) => number) =>
                          rs.reduce((s, x) => s + f(x), 0);
                        const judged = sum((x) => x.proposals - x.no_proposal);
                        return `round ${k}: ${sum((x) => x.proposals)} proposals, ${sum((x) => x.admitted)} admitted, rejection ${judged ? ((100 * (sum((x) => x.rejected_gate1) + sum((x) => x.rejected_gate2))) / judged).toFixed(1) : '0.0'} % (gate 1 ${sum((x) => x.rejected_gate1)}, gate 2 ${sum((x) => x.rejected_gate2)})`;
                      })
                      .join('; ')}`,
                  ]
                : []),
            ]);
        } finally {
          bar.stop();
          await j.close();
        }
      },
    );

  judgeOptions(
    hero
      .command('evaluate')
      .description('score selections by inserting every frame into every chain of its film'),
  )
    .requiredOption(
      '--selections <files...>',
      "one or more methods' selections files (the method is the file name)",
    )
    .requiredOption('--data <dir>', 'dataset root')
    .requiredOption('--track <dir>', 'the rebuilt 1 fps track')
    .option(
      '--protocol <p>',
      `${INSERTION_PROTOCOLS.join(' | ')} (listwise: the published positional question)`,
      'listwise',
    )
    .option('--both-orders', 'listwise: ask again with the chain shown worst first and record disagreements')
    .option(
      '--disagreement <rule>',
      `with --both-orders, how a disagreement scores: ${DISAGREEMENT_RULES.join(' | ')}`,
      'error',
    )
    .option('--include-stills', 'add the human reference row "stills"')
    .option('--rescore-official', 'score the official selections of eval/baselines.jsonl with this reader')
    .option('--missing <how>', 'a film without a submission: error | zero', 'error')
    .option('--dry-run', 'print the calls needed and how many the cache holds; spend none')
    .option('--max-calls <n>', 'stop cleanly at this many calls (exit 5; resumable)')
    .option('--out <dir>', 'output folder', 'hero-eval')
    .option('--movies <ids...>', 'only these films (a merge then needs the others from other folders)')
    .option(
      '--shard <k/n>',
      'a deterministic k-th of n shards of the films (own --out and --cache; see kfbench merge)',
    )
    .option('--seed <s>', 'bootstrap seed', '0')
    .option('--bootstrap <n>', 'bootstrap resamples', '1000')
    .option('--json', 'print the summary as JSON')
    .action(
      async (
        o: Parameters<typeof judgeFlags>[0] & {
          selections: string[];
          data: string;
          track: string;
          protocol: string;
          bothOrders?: boolean;
          disagreement: string;
          includeStills?: boolean;
          rescoreOfficial?: boolean;
          missing: string;
          dryRun?: boolean;
          maxCalls?: string;
          out: string;
          movies?: string[];
          shard?: string;
          seed: string;
          bootstrap: string;
          json?: boolean;
        },
      ) => {
        if (!INSERTION_PROTOCOLS.includes(o.protocol as InsertionProtocol))
          throw new UsageError(`--protocol must be ${INSERTION_PROTOCOLS.join(', ')}`);
        if (o.bothOrders && o.protocol !== 'listwise')
          throw new UsageError(
            '--both-orders applies to --protocol listwise (pairwise and binary already ask both placements)',
          );
        if (!DISAGREEMENT_RULES.includes(o.disagreement as DisagreementRule))
          throw new UsageError(`--disagreement must be ${DISAGREEMENT_RULES.join(', ')}`);
        if (o.missing !== 'error' && o.missing !== 'zero')
          throw new UsageError('--missing must be error or zero');
        const names = new Map<string, number>();
        const methods = o.selections.map((file) => {
          const base = basename(file).replace(/\.jsonl(\.zst)?$/, '');
          const n = (names.get(base) ?? 0) + 1;
          names.set(base, n);
          return { method: n > 1 ? `${base}#${n}` : base, file };
        });
        const settings = resolveJudgeSettings(judgeFlags(o));
        const interrupt = interruptSignal();
        const j = await openJudge(settings, { signal: interrupt.signal });
        const t0 = Date.now();
        const bar = progress('insertions');
        try {
          const input = {
            concurrency: settings.concurrency,
            signal: interrupt.signal,
            data: o.data,
            track: o.track,
            methods,
            judge: j.judge,
            encoder: j.encoder,
            protocol: o.protocol as InsertionProtocol,
            bothOrders: !!o.bothOrders,
            disagreement: o.disagreement as DisagreementRule,
            includeStills: !!o.includeStills,
            rescoreOfficial: !!o.rescoreOfficial,
            missing: o.missing as 'error' | 'zero',
            dryRun: !!o.dryRun,
            maxCalls:
              o.maxCalls === undefined
                ? undefined
                : parseNumberFlag('--max-calls', o.maxCalls, (n) => Number.isInteger(n) && n >= 0),
            seed: o.seed,
            bootstrapB: parseNumberFlag('--bootstrap', o.bootstrap, (n) => Number.isInteger(n) && n >= 100),
            movies: o.movies,
            shard: o.shard ? parseShard(o.shard) : undefined,
          };
          const r = await evaluate({
            ...input,
            onEvent: (e) => (e.type === 'start' ? bar.start(e.insertions, 'evaluate') : bar.update(e.done)),
          });
          bar.stop();
          if (r.dryRun) {
            const d = r.dryRun;
            const out = {
              dry_run: true,
              insertions: d.insertions,
              questions: d.questions,
              cached: d.cached,
              to_ask: d.questions - d.cached,
              upper_bound: d.upper_bound,
            };
            if (o.json) printJson(out);
            else
              printLines([
                `${d.insertions} insertions need ${d.upper_bound ? 'at most ' : ''}${d.questions} questions (re-asks aside); the cache holds ${d.cached}; ${d.questions - d.cached} to ask`,
              ]);
            return;
          }
          const run = {
            reader: j.judge.name,
            protocol: o.protocol,
            both_orders: !!o.bothOrders,
            ...j.judge.stats,
            insertions: r.insertions.length,
            complete: r.complete,
            wall_ms: Date.now() - t0,
          };
          const files = await writeEvaluation(o.out, r, run, o.track);
          files.push(
            await writeShardRecord(
              o.out,
              await heroShardRecord(
                { ...input, data: resolve(o.data), track: resolve(o.track) },
                r,
                judgeIdentity(j.judge.name, settings),
              ),
            ),
          );
          if (o.json) printJson(r.summary);
          else
            printLines([
              heroTable(r.summary),
              `${j.judge.stats.calls} calls, ${j.judge.stats.cached} from cache (${r.summary.questions} questions for ${r.insertions.length} insertions)`,
              `reports: ${files.join(', ')}`,
            ]);
          if (!r.complete)
            throw new PartialError(
              `stopped at --max-calls after ${r.insertions.length} insertions; run again to resume from the cache`,
              [],
            );
        } finally {
          interrupt.dispose();
          bar.stop();
          await j.close();
        }
      },
    );

  hero
    .command('mini')
    .description('build the mini HeroFrame set (generated films, footage, stills, track) if absent')
    .requiredOption('--out <dir>', 'where to build it')
    .option('--json', 'print JSON')
    .action(async (o: { out: string; json?: boolean }) => {
      const p = await buildMiniHero(o.out, { onFilm: (id) => process.stderr.write(`mini set: ${id}\n`) });
      if (o.json) printJson(p);
      else
        printLines([`dataset ${p.data}`, `footage ${p.lsmdc}`, `stills  ${p.stills}`, `track   ${p.track}`]);
    });
}
