/**
 * The HeroFrame part of the demo: the mini set, chains built by `hero build` judged by the VLM
 * emulator (started in-process on 127.0.0.1, reached over HTTP through the real client), the
 * local reader fitted on them, every selection method, `eval/baselines.jsonl` scored by the
 * emulator, and every method evaluated with the local reader. The emulator's preference is a fixed
 * rule (sharpness, colour, centring), so photographic-proxy methods win the mini set by
 * construction: this shows the machinery, not the published findings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildChains } from '../hero/build/build.js';
import { datasetPaths } from '../hero/dataset/layout.js';
import { BaselineRow, Selection } from '../hero/dataset/schemas.js';
import { type EvaluateResult, evaluate } from '../hero/evaluate/evaluate.js';
import { fitHeroReaderCached } from '../hero/reader/fit-cache.js';
import { METHODS } from '../hero/select/registry.js';
import { runSelection } from '../hero/select/run.js';
import { resolveJudgeSettings } from '../judge/precedence.js';
import { type OpenedJudge, openJudge } from '../judge/registry.js';
import type { OnProgress } from '../progress.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { writeJsonl } from '../store/jsonl.js';
import { startEmulator } from '../synthetic/emulator/server.js';
import { buildMiniHero, type MiniHeroPaths } from '../synthetic/mini-hero.js';
import { evaluateHeroFolder } from './hero-evaluate.js';

export const DEMO_CHAINS_PER_FILM = 4;

export interface HeroDemoResult {
  data: string;
  cvAgreement: number;
  emulatorReader: string;
  localReader: string;
  result: EvaluateResult;
  report: string;
  calls: { build: number; baselines: number; local: number };
}

type Emulated = { judge: OpenedJudge; mini: MiniHeroPaths; out: string; onProgress: OnProgress };

/** The chains, built by `hero build` judged by the emulator (once: a stamp marks them built). */
async function demoChains({ judge, mini, onProgress }: Emulated): Promise<void> {
  const stamp = join(mini.data, '.chains-built.json');
  if (existsSync(stamp)) return;
  await buildChains({
    data: mini.data,
    lsmdc: mini.lsmdc,
    stills: mini.stills,
    judge: judge.judge,
    encoder: judge.encoder,
    chainsPerFilm: DEMO_CHAINS_PER_FILM,
    seed: 0,
    onProgress,
  });
  await writeFileAtomic(
    stamp,
    `${JSON.stringify({ reader: judge.judge.name, chains_per_film: DEMO_CHAINS_PER_FILM })}\n`,
  );
}

/** Every selection method's selections file (made once), as the methods to evaluate. */
async function demoSelections({ judge, mini, out, onProgress }: Emulated) {
  const selDir = join(out, 'selections');
  const methods: { method: string; file: string }[] = [];
  for (const m of METHODS) {
    const file = join(selDir, `${m.name}.jsonl`);
    if (!existsSync(file))
      await runSelection({
        method: m,
        data: mini.data,
        track: mini.track,
        lsmdc: mini.lsmdc,
        judge: { judge: judge.judge, encoder: judge.encoder },
        out: file,
        k: 5,
        seed: 0,
        onProgress,
      });
    methods.push({ method: m.name, file });
  }
  return methods;
}

/** eval/baselines.jsonl in its published shape, scored by the emulator (once): a method that scored nothing has no row. */
async function demoBaselines({ judge, mini }: Emulated, methods: { method: string; file: string }[]) {
  const baselines = datasetPaths(mini.data).baselines;
  if (existsSync(baselines)) return;
  const r = await evaluate({
    data: mini.data,
    track: mini.track,
    methods,
    judge: judge.judge,
    encoder: judge.encoder,
    protocol: 'listwise',
    bootstrapB: 200,
    concurrency: 16,
  });
  const rows: BaselineRow[] = r.summary.methods.flatMap((m) =>
    m.S === null || m.top1_rate === null || m.beat_still_rate === null
      ? []
      : [
          {
            method: m.method,
            reader: m.reader,
            S: m.S,
            S_at_k: Object.fromEntries(
              Object.entries(m.S_at_k).flatMap(([k, v]) => (v === null ? [] : [[k, v]])),
            ),
            top1_rate: m.top1_rate,
            beat_still_rate: m.beat_still_rate,
            per_film: r.perFilm
              .filter((f) => f.method === m.method)
              .map((f) => ({ movie_id: f.movie_id, S: f.S })),
            selections: readFileSync(methods.find((x) => x.method === m.method)!.file, 'utf8')
              .trim()
              .split('\n')
              .map((l) => Selection.parse(JSON.parse(l))),
          },
        ],
  );
  await writeJsonl(baselines, BaselineRow, rows);
}

/** The emulator's part: chains, selections and baselines, with the calls each took. */
async function emulatedPart(out: string, mini: MiniHeroPaths, onProgress: OnProgress) {
  const emu = await startEmulator();
  try {
    const judge = await openJudge(
      resolveJudgeSettings(
        { judge: `openai:kfbench-emulator@${emu.url}`, cache: join(out, 'emulator-cache.sqlite') },
        {},
      ),
    );
    try {
      const e: Emulated = { judge, mini, out, onProgress };
      await demoChains(e);
      const build = judge.judge.stats.calls;
      await demoBaselines(e, await demoSelections(e));
      return { build, baselines: judge.judge.stats.calls - build };
    } finally {
      await judge.close();
    }
  } finally {
    await emu.close();
  }
}

export async function runHeroDemo(
  out: string,
  onProgress: OnProgress,
  materialCache?: string,
): Promise<HeroDemoResult> {
  const mini = await buildMiniHero(join(out, 'mini-hero'), { onProgress, materialCache });
  const emulated = await emulatedPart(out, mini, onProgress);
  const readerFile = join(out, 'reader.json');
  // refitted only when the chains, the images or the settings changed (a warm demo reuses it)
  const fit = await fitHeroReaderCached({ data: mini.data, out: readerFile });
  const evaluated = await evaluateHeroFolder({
    out: join(out, 'hero-eval'),
    judge: resolveJudgeSettings(
      { judge: `local:${readerFile}`, cache: join(out, 'local-cache.sqlite'), concurrency: 8 },
      {},
    ),
    data: mini.data,
    track: mini.track,
    methods: METHODS.map((m) => ({ method: m.name, file: join(out, 'selections', `${m.name}.jsonl`) })),
    protocol: 'listwise',
    includeStills: true,
    stillsDir: mini.stills,
  });
  return {
    data: mini.data,
    cvAgreement: fit.cv_agreement,
    emulatorReader: 'openai:kfbench-emulator (the VLM emulator, in-process on 127.0.0.1)',
    localReader: evaluated.run.reader,
    result: evaluated.result,
    report: evaluated.files[5]!,
    calls: { ...emulated, local: evaluated.run.calls },
  };
}
