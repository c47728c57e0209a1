/** cases.jsonl: every rule checked line by line, each error naming file, line and case. */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Case, caseStats, loadCases, loadOneCase, videoPath } from '../../src/compass/cases/cases.js';
import { BadInputError, UsageError } from '../../src/errors.js';
import { media, tempDir } from '../support/paths.js';

let dir = '';
const images = ['base.png', 'coffee.png', 'mandel.png', 'testsrc.png', 'noise.png', 'shift.png'];

beforeAll(() => {
  dir = tempDir('kfbench-cases-');
  mkdirSync(join(dir, 'kf'));
  for (const f of images) copyFileSync(media(f), join(dir, 'kf', f));
});

function oneTake(over: Partial<Case> = {}): Case {
  return {
    case_id: 'ot-a',
    domain: 'daily',
    structure: 'one_take',
    duration_s: 6,
    keyframes: images
      .slice(0, 3)
      .map((f, i) => ({ kf_id: `k${i}`, image: `kf/${f}`, t_target_s: 1 + 2 * i })),
    prompts: { minimal: 'm', segment_specific: 's' },
    story_summary: 'x',
    conditioning: 'image_list',
    ...over,
  };
}

function multiShot(over: Partial<Case> = {}): Case {
  return {
    ...oneTake(),
    case_id: 'ms-a',
    structure: 'multi_shot',
    keyframes: [
      { kf_id: 'a', image: 'kf/base.png', shot_index: 0, shot_position: 'first' },
      { kf_id: 'b', image: 'kf/coffee.png', shot_index: 0, shot_position: 'last' },
      { kf_id: 'c', image: 'kf/mandel.png', shot_index: 1 },
    ],
    ...over,
  };
}

function write(name: string, rows: unknown[]): string {
  const f = join(dir, name);
  writeFileSync(f, rows.map((r) => JSON.stringify(r)).join('\n'));
  return f;
}

async function error(rows: unknown[]): Promise<string> {
  const f = write('bad.jsonl', rows);
  const e = await loadCases(f).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(BadInputError);
  return (e as Error).message;
}

describe('cases.jsonl', () => {
  it('loads valid cases and resolves images against the file’s folder', async () => {
    const f = write('ok.jsonl', [oneTake(), multiShot()]);
    const cases = await loadCases(f);
    expect(cases.map((c) => c.case_id)).toEqual(['ot-a', 'ms-a']);
    expect(cases[0]!.keyframes[0]!.image).toBe(join(dir, 'kf', 'base.png'));
    expect(cases[1]!.source).toEqual({ file: f, line: 2 });
  });

  it('names file, line and case for each broken rule', async () => {
    expect(await error([oneTake(), { ...oneTake({ case_id: 'x0' }), keyframes: [] }])).toMatch(
      /bad\.jsonl:2: keyframes: .*1/,
    );
    const late = oneTake();
    late.keyframes[2]!.t_target_s = 7;
    expect(await error([late])).toMatch(/:1: case ot-a: keyframe k2: t_target_s 7 is past duration_s 6/);
    const order = oneTake();
    order.keyframes[1]!.t_target_s = 0.5;
    expect(await error([order])).toMatch(/keyframes out of order: k1 at 0.5 s does not come after 1 s/);
    const noT = oneTake();
    delete noT.keyframes[0]!.t_target_s;
    expect(await error([noT])).toMatch(/one-take keyframe k0 has no t_target_s/);
    const skip = multiShot();
    skip.keyframes[2]!.shot_index = 2;
    expect(await error([skip])).toMatch(/shot_index 2 skips shot 1/);
    const back = multiShot();
    back.keyframes[1]!.shot_position = 'first';
    expect(await error([back])).toMatch(/keyframes out of order: b \(first\)/);
    const noShot = multiShot();
    delete noShot.keyframes[0]!.shot_index;
    expect(await error([noShot])).toMatch(/multi-shot keyframe a has no shot_index/);
    const gone = oneTake();
    gone.keyframes[1]!.image = 'kf/nope.png';
    expect(await error([gone])).toMatch(/keyframe k1: image kf\/nope.png does not exist/);
    expect(await error([oneTake({ case_id: '../evil' })])).toMatch(
      /:1: case_id: must start with a letter or digit/,
    );
    expect(await error([oneTake(), oneTake()])).toMatch(/:2: case_id ot-a already used on line 1/);
    const dup = oneTake();
    dup.keyframes[1]!.kf_id = 'k0';
    expect(await error([dup])).toMatch(/keyframe id k0 appears twice/);
    expect(await error([{ ...oneTake(), structure: 'three_take' }])).toMatch(/:1: structure:/);
  });

  it("accepts any keyframe count ≥ 1: the published set's 3, 6, 9, 12 are no rule for own cases", async () => {
    const two = oneTake({ case_id: 'x2' });
    const one = oneTake({ case_id: 'x1' });
    const f = write('counts.jsonl', [
      oneTake(),
      { ...two, keyframes: two.keyframes.slice(0, 2) },
      { ...one, keyframes: one.keyframes.slice(1, 2) },
    ]);
    const cases = await loadCases(f);
    expect(cases.map((c) => c.keyframes.length)).toEqual([3, 2, 1]);
    expect(caseStats(cases)).toMatchObject({
      by_keyframes: { '1': 1, '2': 1, '3': 1 },
      outside_published_counts: [
        { case_id: 'x2', keyframes: 2 },
        { case_id: 'x1', keyframes: 1 },
      ],
    });
  });

  it('one case by id, or from its own JSON file', async () => {
    const f = write('two.jsonl', [oneTake(), multiShot()]);
    expect((await loadOneCase({ casesFile: f, caseId: 'ms-a' })).structure).toBe('multi_shot');
    await expect(loadOneCase({ casesFile: f })).rejects.toThrow(/has 2 cases: name one with --case-id/);
    await expect(loadOneCase({ casesFile: f, caseId: 'zz' })).rejects.toThrow(/no case with case_id zz/);
    await expect(loadOneCase({})).rejects.toBeInstanceOf(UsageError);
    const one = join(dir, 'one.json');
    writeFileSync(one, JSON.stringify(oneTake()));
    expect((await loadOneCase({ caseFile: one })).keyframes).toHaveLength(3);
  });

  it('videos live at <videos>/<model>/<case_id>__<prompt_mode>.mp4', () => {
    expect(videoPath('/v', 'm', 'c1', 'segment_specific')).toBe('/v/m/c1__segment_specific.mp4');
  });
});
