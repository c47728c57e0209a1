/**
 * `compass evaluate` (audio judged by default when the videos carry sound tracks) and `compass report --rank-by`: the joint audio-video
 * leaderboard ranks by default once audio is judged, over the common set of cases the models that
 * answered with audio all answered; a video without an audio track scores AV Coordination 0 and is
 * named; a model with no audio at all is only on the video-only table, and named; every report says
 * which table, how many cases and which formula.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { loadViewerData } from '../../src/web/data.js';
import { MediaCache } from '../../src/web/media.js';
import { renderPage } from '../../src/web/render.js';
import { Site } from '../../src/web/site.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';
import { TONE, withSoundTrack } from '../support/sound-track.js';

let emu: Emulator;
let dir = '';
let cases = '';
const MODES = ['minimal', 'segment_specific'] as const;

/** The mini faithful video of ot-03 in `mode`, with a 440 Hz track or without its sound track (no audio stream). */
async function place(model: string, mode: string, sound: boolean, src: string): Promise<void> {
  mkdirSync(join(dir, 'videos', model), { recursive: true });
  const to = join(dir, 'videos', model, `ot-03__${mode}.mp4`);
  await withSoundTrack(src, to, sound ? TONE : null);
}

beforeAll(async () => {
  const p = await sharedMiniCompass();
  emu = await startEmulator();
  dir = tempDir('kfbench-compass-rank-');
  cases = oneCaseFile(p, 'ot-03', dir); // a case that requests no audio
  for (const mode of MODES) {
    const src = join(p.videos, 'faithful', `ot-03__${mode}.mp4`);
    await place('sound', mode, true, src); // every video with audio
    await place('half', mode, mode === 'minimal', src); // its segment-specific video has none
    await place('silent', mode, false, src); // never answered with audio
  }
});
afterAll(async () => {
  await emu?.close();
});

const evaluate = (out: string, ...extra: string[]) =>
  runCli([
    ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'videos')],
    ...['--model', 'sound', 'half', 'silent', '--segmenter', 'pixel'],
    ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--out', out, ...extra],
  ]);

describe('the joint audio-video leaderboard on the command line', () => {
  it('ranks by default once audio is judged; names its cases, formula, the silent video and the model without audio; report --rank-by video swaps the tables', async () => {
    const out = join(dir, 'eval');
    // no audio flag: the videos carry sound tracks, so audio is judged by default (issue 54 item 1)
    const r = await evaluate(out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/audio judged by default: the videos carry sound tracks.*--no-judge-audio/);
    // the builtin embedder is not the paper's: said on stderr, stdout, leaderboard.json and every report
    const notice = /embedder builtin is not the paper(?:'|&#39;)s .*--embedder dinov3-small gives the paper/;
    expect(r.stderr).toMatch(notice);
    expect(r.stdout).toMatch(notice);
    expect(JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8')).embedder_notice).toMatch(notice);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).embedder_notice).toMatch(notice);
    for (const format of ['md', 'html'])
      expect((await runCli(['compass', 'report', '--eval', out, '--format', format])).stdout).toMatch(notice);
    expect(r.stdout).toMatch(/^ranked: the joint audio-video leaderboard, over 1 cases \(the common set/m);
    expect(r.stdout).toMatch(
      /^Overall: keyframe control = mean\(Keyframe Fidelity, Temporal Organization\)/m,
    );
    expect(r.stdout).toContain('not on this table (no video with an audio track): silent');
    expect(r.stdout).toContain('half: no audio track, AV Coordination 0: ot-03__segment_specific');
    expect(r.stdout).toMatch(/^the video-only leaderboard, over 1 cases \(all evaluated\)/m);
    const lb = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    expect(lb.table).toBe('joint');
    expect(lb.cases).toEqual({ count: 1, ids: ['ot-03'] });
    expect(lb.formula).toMatch(/AV Coordination 0 for a video without an audio track/);
    expect(lb.models.map((m: { model: string }) => m.model)).toEqual(['sound', 'half']);
    expect(lb.models_without_audio).toEqual(['silent']);
    const [sound, half] = lb.models;
    expect(half.no_audio_track).toEqual(['ot-03__segment_specific']);
    expect(sound.no_audio_track).toEqual([]);
    // the same pictures: only AV Coordination separates them (half's silent video scores it 0)
    expect(half.groups.keyframe_control).toBe(sound.groups.keyframe_control);
    expect(half.groups.av_coordination).toBeCloseTo(sound.groups.av_coordination / 2, 12);
    expect(lb.other.table).toBe('video');
    expect(lb.other.models.map((m: { model: string }) => m.model).sort()).toEqual([
      'half',
      'silent',
      'sound',
    ]);

    const byVideo = await runCli(['compass', 'report', '--eval', out, '--rank-by', 'video']);
    expect(byVideo.code, byVideo.stderr).toBe(0);
    expect(byVideo.stdout).toMatch(/^ranked: the video-only leaderboard, over 1 cases \(all evaluated\)/m);
    expect(byVideo.stdout).toMatch(/^the joint audio-video leaderboard, over 1 cases/m);
    const json = JSON.parse(
      (await runCli(['compass', 'report', '--eval', out, '--rank-by', 'video', '--format', 'json'])).stdout,
    );
    expect(json.table).toBe('video');
    expect(json.other.table).toBe('joint');
    expect(json.other.cases.ids).toEqual(['ot-03']);
    for (const [format, re] of [
      ['md', /ranked: the joint audio-video leaderboard, over 1 cases/],
      ['html', /ranked: the joint audio-video leaderboard, over 1 cases/],
      ['csv', /^joint,all,,sound,/m],
    ] as const) {
      const rep = await runCli(['compass', 'report', '--eval', out, '--format', format]);
      expect(rep.stdout, format).toMatch(re);
    }

    // the viewer says the same: which table ranks, its cases and formula, the silent video; the other table below
    const site = new Site(
      await loadViewerData({ cases, videos: join(dir, 'videos'), compassResults: [out] }),
      new MediaCache(join(dir, 'cache'), 'never'),
    );
    const page = (await renderPage(site, 'index.html'))!;
    expect(page).toContain('Joint audio-video leaderboard (compass evaluate)');
    expect(page).toContain('ranked: the joint audio-video leaderboard, over 1 cases');
    expect(page).toContain(`Overall: ${lb.formula}`);
    expect(page).toContain('<b>half</b>: no audio track, AV Coordination 0: ot-03__segment_specific');
    expect(page).toContain('not on this table (no video with an audio track): silent');
    expect(page).toContain('the video-only leaderboard, over 1 cases (all evaluated)');
    expect(page).toContain('Overall (joint audio-video)'); // the bar chart of the ranked table

    // --rank-by video at evaluate time: the same answers (from the judge cache), the video-only table on top
    const calls = emu.log.length;
    const v = await evaluate(out, '--judge-audio', '--rank-by', 'video');
    expect(v.code, v.stderr).toBe(0);
    expect(emu.log.length).toBe(calls);
    const again = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    expect(again).toEqual(json);
    // settings.json records it, so a merge of shards ranks the same way
    expect(JSON.parse(readFileSync(join(out, 'settings.json'), 'utf8')).settings.rank_by).toBe('video');
    const shard = join(dir, 'shard');
    const s = await evaluate(shard, '--judge-audio', '--rank-by', 'video', '--shard', '1/1');
    expect(s.code, s.stderr).toBe(0);
    const merged = join(dir, 'merged');
    const m = await runCli(['merge', 'compass', shard, '--out', merged]);
    expect(m.code, m.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(merged, 'leaderboard.json'), 'utf8'))).toEqual(json);
  });

  it("the readings the seed leaves open are flags: --joint-cases with-audio drops the case a silent video is in, --video-quality one takes Table 3's Video Quality column; both recorded", async () => {
    const out = join(dir, 'eval-with-audio');
    const r = await evaluate(out, '--judge-audio', '--joint-cases', 'with-audio', '--video-quality', 'one');
    expect(r.code, r.stderr).toBe(0);
    const lb = JSON.parse(readFileSync(join(out, 'leaderboard.json'), 'utf8'));
    // ot-03's segment-specific video of `half` has no track: with-audio leaves no common case
    expect(lb.table).toBe('joint');
    expect(lb.cases).toEqual({ count: 0, ids: [] });
    expect(lb.formula).toMatch(
      /^Video Quality = mean\(Visual Quality, Spatiotemporal Coherence, Instruction Adherence\); /,
    );
    expect(lb.formula).toMatch(/--joint-cases with-audio/);
    expect(lb.other.formula).toMatch(/mean\(keyframe control, Video Quality\).*--video-quality one/);
    const settings = JSON.parse(readFileSync(join(out, 'settings.json'), 'utf8'));
    expect(settings.settings ?? settings).toMatchObject({ video_quality: 'one', joint_cases: 'with-audio' });
    const bad = await evaluate(join(dir, 'eval-bad'), '--judge-audio', '--joint-cases', 'with-sound');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--joint-cases/);
  });

  it('by default a set without sound tracks is not asked for audio (the dry run says so and plans no AV call)', async () => {
    const run = (model: string) =>
      runCli([
        ...['compass', 'evaluate', '--cases', cases, '--videos', join(dir, 'videos'), '--model', model],
        ...['--judge', `openai:kfbench-emulator@${emu.url}`, '--out', join(dir, `dry-${model}`), '--dry-run'],
      ]);
    const silent = await run('silent');
    expect(silent.code, silent.stderr).toBe(0);
    expect(silent.stderr).toMatch(/audio not judged: no video carries a sound track/);
    expect(silent.stdout).not.toMatch(/av_coordination/);
    const sound = await run('sound');
    expect(sound.stderr).toMatch(/audio judged by default/);
    expect(sound.stdout).toMatch(/av_coordination/);
  });

  it('with --no-judge-audio there is no joint table: --rank-by joint is a usage error (exit 2), and report --rank-by joint says why', async () => {
    const noAudio = await evaluate(join(dir, 'eval-bad'), '--no-judge-audio', '--rank-by', 'joint');
    expect(noAudio.code).toBe(2);
    expect(noAudio.stderr).toMatch(/--rank-by joint with --no-judge-audio/);
    const quiet = join(dir, 'eval-quiet');
    const r = await evaluate(quiet, '--no-judge-audio');
    expect(r.stderr).toMatch(/audio not judged \(--no-judge-audio\)/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ranked: the video-only leaderboard, over 1 cases \(all evaluated\)/m);
    const rep = await runCli(['compass', 'report', '--eval', quiet, '--rank-by', 'joint']);
    expect(rep.code).toBe(2);
    expect(rep.stderr).toMatch(/only the video-only table/);
    const typo = await runCli(['compass', 'report', '--eval', quiet, '--rank-by', 'audio']);
    expect(typo.code).toBe(2);

    // the other reading of "after joint keyframe-control aggregation": the two response groups
    // kept apart (--keyframe-control separate), from the same answers; named in the formula
    const apart = join(dir, 'eval-apart');
    const calls = emu.log.length;
    const sep = await evaluate(
      apart,
      ...[
        '--no-judge-audio',
        '--keyframe-control',
        'separate',
        '--judge-cache',
        join(quiet, 'judge-cache.sqlite'),
      ],
    );
    expect(sep.code, sep.stderr).toBe(0);
    expect(emu.log.length).toBe(calls);
    const lb = JSON.parse(readFileSync(join(apart, 'leaderboard.json'), 'utf8'));
    expect(lb.formula).toMatch(
      /^per case and prompt mode: mean\(Keyframe Fidelity, Temporal Organization, Visual/,
    );
    expect(lb.formula).toContain('--keyframe-control separate');
    const rows = readFileSync(join(apart, 'evaluation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((v) => v.model === 'sound');
    const five = (v: (typeof rows)[number]) =>
      (v.response.groups.keyframe_fidelity +
        v.response.groups.temporal_organization +
        v.quality.groups.visual_quality.score +
        v.quality.groups.spatiotemporal_coherence.score +
        v.quality.groups.instruction_adherence.score) /
      5;
    for (const v of rows) expect(v.overall.score).toBeCloseTo(five(v), 12);
    expect(lb.models.find((m: { model: string }) => m.model === 'sound').overall).toBeCloseTo(
      (five(rows[0]) + five(rows[1])) / 2,
      12,
    );
    expect(JSON.parse(readFileSync(join(apart, 'settings.json'), 'utf8')).settings.keyframe_control).toBe(
      'separate',
    );
    const bad = await evaluate(join(dir, 'eval-bad2'), '--keyframe-control', 'joint');
    expect(bad.code).toBe(2);
  });
});
