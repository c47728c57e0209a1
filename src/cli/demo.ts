/** `kfbench demo`: builds small generated material and runs kfbench on it (no network, no GPU). */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { compassTable, leaderboardText } from '../report/compass.js';
import { heroTable } from '../report/hero.js';
import { runCompassDemo } from '../synthetic/demo-compass.js';
import { runCompassQualityDemo } from '../synthetic/demo-compass-quality.js';
import { runHeroDemo } from '../synthetic/demo-hero.js';
import { runMediaDemo } from '../synthetic/demo-media.js';
import { demoViewerInputs, serveCommand } from '../synthetic/demo-viewer.js';
import { printLines } from './output.js';
import { renderProgress } from './progress.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('build small generated material and run kfbench on it (no network, no GPU)')
    .option('--out <dir>', 'where the demo writes', 'kfbench-demo')
    .option('--media-only', 'only the media building blocks (a few seconds)')
    .action(async (o: { out: string; mediaOnly?: boolean }) => {
      const out = resolve(o.out);
      const t0 = Date.now();
      const r = await runMediaDemo(out);
      printLines([
        '== media building blocks',
        `video   ${r.video}`,
        `probe   ${r.info.width}×${r.info.height}, ${r.info.frames} frames, ${r.info.fps} fps, ${r.info.duration_s.toFixed(2)} s`,
        `shots   ${r.shots.shots.length}: ${r.shots.shots.map((s) => `[${s.start_s.toFixed(2)}, ${s.end_s.toFixed(2)})`).join(' ')}`,
        `        ${r.shots.transitions.map((t) => `${t.kind}@${t.start_frame}${t.end_frame !== t.start_frame ? `–${t.end_frame}` : ''}`).join(', ')}`,
        `samples ${r.samples.length} at 1 fps (bucket midpoints), dHash ${r.samples[0]?.dhash ?? ''} …`,
        `grid    ${r.grid}`,
      ]);
      if (o.mediaOnly) return;
      process.stderr.write('== HeroFrame on the mini set\n');
      const shown = renderProgress();
      const h = await runHeroDemo(out, shown.onProgress);
      printLines([
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
      ]);
      process.stderr.write('== Compass on the mini set\n');
      const c = await runCompassDemo(out, shown.onProgress);
      printLines([
        '',
        '== Compass keyframe-response leaderboard (mini set)',
        `${c.cases} cases × ${Object.keys(c.summary.models).length} fault "models" × 2 prompt modes = ${c.videos} videos (${c.scanned} decoded, the rest from the scan cache)`,
        'Each mini "model" breaks one thing on purpose (see docs/compass.md, "The metrics catch their faults"):',
        '',
        compassTable(c.summary),
        '',
        `results ${c.out}`,
      ]);
      process.stderr.write('== Compass both axes (compass evaluate) on the mini set\n');
      const q = await runCompassQualityDemo(out, c.mini, c.scanCache, shown.onProgress);
      shown.close();
      printLines([
        '',
        '== Compass leaderboard: Overall = keyframe response and MLLM-judged video quality (mini set)',
        `${q.videos} videos (${q.leaderboard.models.length} models × ${c.cases} cases × 2 prompt modes), judged by the VLM emulator over HTTP;`,
        'it scores checklists from pixel statistics, so the blurred, flickering and frozen "models" lose on quality by construction.',
        '',
        leaderboardText(q.leaderboard, { factors: false }),
        '',
        `judge calls ${q.calls}, from the cache ${q.cached}, unresolved ${q.unresolved}; results ${q.out}`,
        '',
        'See both in the viewer (read-only, 127.0.0.1):',
        `  ${serveCommand(demoViewerInputs(o.out))}`,
        `done in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      ]);
    });
}
