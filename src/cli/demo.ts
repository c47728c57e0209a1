/** `kfbench demo`: builds small generated material and runs kfbench on it (no network, no GPU). */
import type { Command } from 'commander';
import { compassTable, leaderboardText } from '../report/compass.js';
import { heroTable } from '../report/hero.js';
import { type DemoPart, runDemo } from '../runs/demo.js';
import type { CompassDemo } from '../runs/demo-compass.js';
import type { HeroDemoResult } from '../runs/demo-hero.js';
import type { CompassQualityDemo } from '../synthetic/demo-compass-quality.js';
import type { MediaDemoResult } from '../synthetic/demo-media.js';
import { demoViewerInputs, serveCommand } from '../synthetic/demo-viewer.js';
import { cliEnv } from './env.js';
import { DEMO_DIR } from './example-paths.js';
import { addFlags, type FlagValues, flagSpecs } from './flags.js';
import { printLines } from './output.js';
import { renderProgress } from './progress.js';

function mediaLines(r: MediaDemoResult): string[] {
  return [
    '== media building blocks',
    `video   ${r.video}`,
    `probe   ${r.info.width}×${r.info.height}, ${r.info.frames} frames, ${r.info.fps} fps, ${r.info.duration_s.toFixed(2)} s`,
    `shots   ${r.shots.shots.length}: ${r.shots.shots.map((s) => `[${s.start_s.toFixed(2)}, ${s.end_s.toFixed(2)})`).join(' ')}`,
    `        ${r.shots.transitions.map((t) => `${t.kind}@${t.start_frame}${t.end_frame !== t.start_frame ? `–${t.end_frame}` : ''}`).join(', ')}`,
    `samples ${r.samples.length} at 1 fps (bucket midpoints), dHash ${r.samples[0]?.dhash ?? ''} …`,
    `grid    ${r.grid}`,
  ];
}

function heroLines(h: HeroDemoResult): string[] {
  return [
    '',
    '== HeroFrame leaderboard (mini set)',
    `chains and eval/baselines.jsonl judged by ${h.emulatorReader}; leaderboard scored by the local reader ${h.localReader}`,
    `(fitted on the chains' confident pairs; 5-fold cross-validated agreement by film ${(100 * h.cvAgreement).toFixed(1)} %)`,
    'The emulator prefers sharp, colourful, centred images by a fixed rule, so photographic-proxy methods win here by construction:',
    'this demonstrates the machinery, not the published findings.',
    '',
    heroTable(h.result.summary),
    '',
    `calls: ${h.calls.build} to build chains, ${h.calls.baselines} for baselines, ${h.calls.local} local-reader answers (cached runs make none)`,
    `report  ${h.report}`,
  ];
}

function compassLines(c: CompassDemo): string[] {
  return [
    '',
    '== Compass keyframe-response leaderboard (mini set)',
    `${c.cases} cases × ${Object.keys(c.summary.models).length} fault "models" × 2 prompt modes = ${c.videos} videos (${c.scanned} decoded, the rest from the scan cache)`,
    'Each mini "model" breaks one thing on purpose (see docs/compass.md, "The metrics catch their faults"):',
    '',
    compassTable(c.summary),
    '',
    `results ${c.out}`,
  ];
}

function qualityLines(q: CompassQualityDemo, cases: number, out: string, wall_s: number): string[] {
  return [
    '',
    '== Compass leaderboard: Overall = keyframe response and MLLM-judged video quality (mini set)',
    `${q.videos} videos (${q.leaderboard.models.length} models × ${cases} cases × 2 prompt modes), judged by the VLM emulator over HTTP;`,
    'it scores checklists from pixel statistics and the sound track\'s loudness, so the blurred, flickering and frozen "models" lose on quality',
    'and audio-lag (its sound 0.75 s late) on AV Coordination, by construction. Audio is judged by default (every mini video carries a sound track),',
    "so the joint audio-video table ranks, as in the paper; the embedder is builtin, so the numbers are not on the paper's scale (see the note).",
    '',
    leaderboardText(q.leaderboard, { factors: false }),
    '',
    `judge calls ${q.calls}, from the cache ${q.cached}, unresolved ${q.unresolved}; results ${q.out}`,
    '',
    'See both in the viewer (read-only, 127.0.0.1):',
    `  ${serveCommand(demoViewerInputs(out))}`,
    `done in ${wall_s.toFixed(1)} s`,
  ];
}

/** Each part of the demo as it is done, and the heading of the part that starts next (on stderr). */
function showPart(p: DemoPart, mediaOnly: boolean): void {
  if (p.part === 'media') {
    printLines(mediaLines(p.media));
    if (!mediaOnly) process.stderr.write('== HeroFrame on the mini set\n');
  } else if (p.part === 'hero') {
    printLines(heroLines(p.hero));
    process.stderr.write('== Compass on the mini set\n');
  } else if (p.part === 'compass') {
    printLines(compassLines(p.compass));
    process.stderr.write('== Compass both axes (compass evaluate) on the mini set\n');
  }
}

const DEMO_FLAG_SPECS = flagSpecs({
  out: { flags: '--out <dir>', description: 'where the demo writes', default: DEMO_DIR },
  mediaOnly: { flags: '--media-only', description: 'only the media building blocks (a few seconds)' },
});

export function registerDemo(cmd: Command): void {
  addFlags(cmd, DEMO_FLAG_SPECS).action(async (o: FlagValues<typeof DEMO_FLAG_SPECS>) => {
    const mediaOnly = !!o.mediaOnly;
    const shown = renderProgress();
    const r = await runDemo({
      out: o.out,
      mediaOnly,
      materialCache: cliEnv().materialCache,
      onProgress: shown.onProgress,
      onPart: (p) => showPart(p, mediaOnly),
    }).finally(() => shown.close());
    if (r.quality && r.compass) printLines(qualityLines(r.quality, r.compass.cases, o.out, r.wall_s));
  });
}
