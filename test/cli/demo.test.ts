import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoCalls, readFigures } from '../../bench/readme-figures.js';
import { METHODS } from '../../src/hero/select/registry.js';
import { DEMO_QUALITY_MODELS } from '../../src/synthetic/demo-compass-quality.js';
import { runCli } from '../support/cli.js';
import {
  COMPASS_EVALUATE_CONTRACTS,
  COMPASS_SCORE_CONTRACTS,
  checkContracts,
  HERO_CONTRACTS,
} from '../support/contracts.js';
import { ROOT, tempDir } from '../support/paths.js';
import { servesHome } from '../support/serve.js';

/**
 * The environment without an enclosing `npx -p PKG -c …`'s call and package, which a nested npx
 * would take for its own (it would then look for `kfbench` in PKG).
 */
function withoutNpxCall(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { npm_config_call: _call, npm_config_package: _package, ...rest } = env;
  return rest;
}

/** Runs a printed `npx kfbench serve …` line in a shell from the repository root, fetches its home page, stops it. */
async function runsAndServes(line: string): Promise<void> {
  // a private npm cache: npx links the project into its cache, which other npx runs may be writing;
  // and no lifecycle scripts: linking runs the project's `prepare` (tsc) in place, which would
  // rewrite dist/ while other test files run from it (seen: an import of a half-written module)
  const { page, stderr } = await servesHome('sh', ['-c', `exec ${line}`], {
    env: {
      ...withoutNpxCall(process.env),
      npm_config_cache: tempDir('kfbench-npx-cache-'),
      npm_config_ignore_scripts: 'true',
    },
    detached: true,
  });
  expect(page).toMatch(/faithful/);
  expect(stderr).not.toMatch(/kfbench serve: (HeroFrame|Compass):/);
}

/**
 * FFMPEG_PATH and FFPROBE_PATH for a counted run: each is a shell script that writes its command
 * line to `log`, then runs the real command (the one kfbench would have run) with the same
 * arguments. Every ffmpeg and ffprobe kfbench starts goes through them.
 */
function spawnCounter(): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const dir = tempDir('kfbench-spawn-counter-');
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const env: NodeJS.ProcessEnv = {};
  for (const [tool, variable] of [
    ['ffmpeg', 'FFMPEG_PATH'],
    ['ffprobe', 'FFPROBE_PATH'],
  ] as const) {
    const real = process.env[variable] ?? tool;
    const script = join(dir, tool);
    writeFileSync(script, `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(script, 0o755);
    env[variable] = script;
  }
  return { env, calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

describe('kfbench demo', () => {
  it('cold: builds the material, judges chains with the emulator, prints the leaderboard; warm: no calls, same board', async () => {
    const out = tempDir();
    const r = await runCli(['demo', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/shots\s+4:/);
    expect(r.stdout).toMatch(/cut@48, cut@96, gradual@/);
    expect(r.stdout).toMatch(/judged by openai:kfbench-emulator \(the VLM emulator/);
    expect(r.stdout).toMatch(/photographic-proxy methods win here by construction/);
    for (const m of METHODS) expect(r.stdout).toMatch(new RegExp(`^${m.name}\\s+local:reader-`, 'm'));
    expect(r.stdout).toMatch(/^stills\s+local:reader-/m);
    expect(existsSync(join(out, 'hero-eval', 'report.html'))).toBe(true);
    expect(existsSync(join(out, 'mini-hero', 'heroframe', 'eval', 'baselines.jsonl'))).toBe(true);
    const summary = readFileSync(join(out, 'hero-eval', 'summary.json'), 'utf8');
    // the random-baseline figures docs/heroframe.md states are the ones the demo prints
    const heroDoc = readFileSync(join(ROOT, 'docs', 'heroframe.md'), 'utf8').replace(/\s+/g, ' ');
    const randomS = (label: string) =>
      new RegExp(`^${label}\\s+\\S+\\s+(0\\.\\d{3})\\s`, 'm').exec(r.stdout)?.[1];
    // the local reader's to two decimals: ffmpeg makes a few mini clips a few levels apart from
    // run to run (docs/heroframe.md), which moves its fit in the third (0.361 or 0.363)
    expect(heroDoc).toContain(`${randomS('random')?.slice(0, 4)} for the demo's local reader`);
    expect(heroDoc).toContain(`${randomS('random \\(official\\)')} for the emulator over HTTP`);
    // docs/compass.md's fault table is what its script prints on the demo's keyframe-response run
    const table = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/compass-fault-table.ts', join(out, 'compass-response', 'response.jsonl')],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const compassDoc = readFileSync(join(ROOT, 'docs', 'compass.md'), 'utf8');
    for (const line of table.trim().split('\n')) expect(compassDoc).toContain(line);
    // Compass: every fault model scored in both prompt modes; faithful leads, missing trails
    expect(r.stdout).toMatch(/8 cases × 7 fault "models" × 2 prompt modes = 112 videos \(56 decoded/);
    const board = r.stdout.slice(r.stdout.indexOf('== Compass'));
    const order = [
      // videos in the means, then coverage (present / expected)
      ...board.matchAll(/^(faithful|missing|swapped|mistimed|repeated|flash|drift)\s+16\s+16\/16\s/gm),
    ].map((m) => m[1]);
    expect(order).toHaveLength(7);
    expect(order[0]).toBe('faithful');
    expect(order[6]).toBe('missing');
    const compassSummary = readFileSync(join(out, 'compass-response', 'summary.json'), 'utf8');
    // every output of the demo round-trips through its one schema
    const heroFiles = checkContracts(
      out,
      HERO_CONTRACTS,
      /^(hero-eval\/|selections\/|reader\.json$|mini-hero\/heroframe\/(data\/chains|images\/image_sha256|stats\/build_report|eval\/baselines))/,
    );
    expect(heroFiles).toContain('hero-eval/summary.json');
    expect(heroFiles).toContain('mini-hero/heroframe/eval/baselines.jsonl');
    // the folder compass score writes: the demo makes the same call
    expect(checkContracts(join(out, 'compass-response'), COMPASS_SCORE_CONTRACTS, /\.jsonl?$/)).toHaveLength(
      5,
    );
    expect(checkContracts(join(out, 'compass-eval'), COMPASS_EVALUATE_CONTRACTS, /\.jsonl?$/)).toHaveLength(
      6,
    );
    const counted = spawnCounter();
    const again = await runCli(['demo', '--out', out], { env: counted.env });
    expect(again.code).toBe(0);
    // warm, the only video read is the shot-detection example (demo.mp4: one probe, two decodes);
    // every Compass and HeroFrame video comes from the caches (README, "Quickstart")
    const reads = counted.calls().filter((c) => !/ -version$/.test(c));
    expect(reads.map((c) => c.split(' ')[0])).toEqual(['ffprobe', 'ffmpeg', 'ffmpeg']);
    for (const c of reads) expect(c).toContain(join(out, 'demo.mp4'));
    expect(again.stdout).toMatch(/calls: 0 to build chains, 0 for baselines, 0 local-reader answers/);
    expect(readFileSync(join(out, 'hero-eval', 'summary.json'), 'utf8')).toBe(summary);
    expect(again.stdout).toMatch(/112 videos \(0 decoded/);
    expect(readFileSync(join(out, 'compass-response', 'summary.json'), 'utf8')).toBe(compassSummary);
    const heroBoard = (s: string) => s.slice(s.indexOf('== HeroFrame leaderboard'), s.indexOf('calls:'));
    expect(heroBoard(again.stdout)).toBe(heroBoard(r.stdout));
    // both axes: Overall per model from compass evaluate, judged by the emulator; warm: no calls
    const overall = (s: string) =>
      s.slice(s.indexOf('== Compass leaderboard: Overall'), s.indexOf('judge calls'));
    // the joint audio-video leaderboard ranks (every mini video has a sound track, audio is
    // judged), over the common set of all 8 cases, by the paper's formula; the video-only one follows
    const both = overall(r.stdout);
    expect(both).toMatch(/^ranked: the joint audio-video leaderboard, over 8 cases \(the common set/m);
    expect(both).toMatch(
      /^Overall: keyframe control = mean\(Keyframe Fidelity, Temporal Organization\); per case and prompt mode: mean\(keyframe control, Visual Quality, Spatiotemporal Coherence, Instruction Adherence, AV Coordination\)/m,
    );
    expect(both).toMatch(/^the video-only leaderboard, over 8 cases \(all evaluated\)/m);
    const joint = both.slice(both.indexOf('ranked: the joint'), both.indexOf('the video-only leaderboard'));
    const jointRows = [
      ...joint.matchAll(/^(\S+)\s+(0\.\d{3}|1\.000)\s.*\s(0\.\d{3}|1\.000)\s+8\s+16\/16\s*$/gm),
    ];
    const rows = jointRows.map((m) => m[1]);
    expect(new Set(rows)).toEqual(new Set(DEMO_QUALITY_MODELS));
    expect(rows[0]).toBe('faithful');
    // audio-lag has faithful's pictures: it loses AV Coordination, and its place
    const av = (m: string) => Number(jointRows.find((x) => x[1] === m)![3]);
    expect(av('audio-lag')).toBeLessThanOrEqual(av('faithful') - 0.5);
    expect(rows.indexOf('audio-lag')).toBeGreaterThan(rows.indexOf('faithful'));
    // docs/compass.md ("What `npm run demo` shows") states this table
    for (const m of jointRows) expect(compassDoc).toContain(`| ${m[1]} | ${m[2]} |`);
    // issue 54: the joint board by default (no flag), the embedder named with what it means, the
    // video-only board without an AV column, and the paper's extra tables in leaderboard.json
    expect(both).toMatch(
      /^embedder builtin is not the paper's .*--embedder dinov3-small gives the paper's$/m,
    );
    expect(r.stdout).toMatch(/Audio is judged by default \(every mini video carries a sound track\)/);
    const heads = both.split('\n').filter((l) => /^model\s+Overall/.test(l));
    expect(heads).toHaveLength(2);
    expect(heads[0]).toMatch(/\sAV\s/);
    expect(heads[1]).not.toMatch(/\sAV\s/);
    const lbFile = JSON.parse(readFileSync(join(out, 'compass-eval', 'leaderboard.json'), 'utf8'));
    expect(lbFile.embedder_notice).toMatch(/not the paper's/);
    expect(Object.keys(lbFile.keyframe_density).sort()).toEqual(['3', '6', '9&12']);
    expect(Object.keys(lbFile.metrics_by_prompt_mode).sort()).toEqual(['minimal', 'segment_specific']);
    expect(lbFile.dropped_items).toBeDefined();
    // the demo shows compass evaluate's default: shots from the judge segmenter
    expect(overall(r.stdout)).toMatch(/segmenter judge/);
    expect(JSON.parse(readFileSync(join(out, 'compass-eval', 'leaderboard.json'), 'utf8')).segmenter).toBe(
      'judge',
    );
    // cold: the only answers from the cache are segmentations of a video already segmented (a
    // case's two prompt modes may be the same bytes: one segmentation each, the second cached),
    // and audio-lag's questions that carry no sound track (its pictures are faithful's: at most
    // four groups for each of its 16 videos)
    // — and, since AV Coordination's question shows only the video and its sound (issue 54 item 3),
    // the AV question of a video whose frames and track another video already had (at most one per video)
    const cold = /judge calls [1-9]\d*, from the cache (\d+), unresolved 0/.exec(r.stdout);
    expect(cold).not.toBeNull();
    expect(Number(cold![1])).toBeLessThanOrEqual(DEMO_QUALITY_MODELS.length * 8 + 16 * 4 + 112);
    // the judge calls the README states (bench/readme-figures.json, which bench/measure-demo.ts
    // writes from a measured cold run) are the ones this cold run made
    expect(demoCalls(r.stdout)).toEqual(readFigures().demo.calls);
    expect(again.stdout).toMatch(/judge calls 0, from the cache [1-9]\d*, unresolved 0/);
    expect(overall(again.stdout)).toBe(overall(r.stdout));
    expect(r.stdout).toMatch(/^done in \d+\.\d s/m);
    // the printed next step runs verbatim from the repository root (port from KFBENCH_PORT)
    const serve = r.stdout.split('\n').find((l) => l.trim().startsWith('npx kfbench serve'));
    expect(serve).toBeDefined();
    await runsAndServes(serve!.trim());
  });
});
