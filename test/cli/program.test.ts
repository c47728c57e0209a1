/**
 * The parser, in process, with fake implementations (`buildProgram(fakes)`): what a command line
 * becomes — defaults, parsed numbers, derived names — and which lines are usage errors, without
 * spawning dist/, decoding or judging anything. A fake records its options and stops the command.
 */
import { join } from 'node:path';
import { type Command, CommanderError } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliImpls, LIBRARY } from '../../src/cli/impls.js';
import { buildProgram } from '../../src/cli/program.js';
import { UsageError } from '../../src/errors.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { sharedMiniCompass } from '../support/mini-compass.js';
import { tempDir } from '../support/paths.js';

class Stop extends Error {}

/** A program whose `name` implementation records its first argument and stops there. */
function withFake<K extends keyof CliImpls>(name: K) {
  const calls: Parameters<CliImpls[K]>[0][] = [];
  const impls: CliImpls = { ...LIBRARY };
  const fake = async (o: Parameters<CliImpls[K]>[0]): Promise<never> => {
    calls.push(o);
    throw new Stop();
  };
  Object.defineProperty(impls, name, { value: fake });
  // commander's own messages are asserted through the errors it throws, not printed
  const quiet = (c: Command): Command => {
    c.configureOutput({ writeErr: () => undefined, writeOut: () => undefined, outputError: () => undefined });
    for (const sub of c.commands) quiet(sub);
    return c;
  };
  const program = buildProgram(impls).then(quiet);
  const run = async (...args: string[]) => (await program).parseAsync(['node', 'kfbench', ...args]);
  return { calls, run };
}

const judge = () => ['--judge', 'openai:m@http://127.0.0.1:9/v1', '--cache', join(tempDir(), 'c.sqlite')];

describe('hero evaluate', () => {
  it('names methods by file (a repeated name gets #2), takes the published defaults, parses numbers', async () => {
    const { calls, run } = withFake('evaluateHero');
    await expect(
      run(
        ...['hero', 'evaluate', '--selections', 'a/uniform.jsonl', 'b/uniform.jsonl', 'x/sharpest.jsonl.zst'],
        ...['--data', 'D', '--track', 'T', ...judge(), '--max-calls', '12', '--bootstrap', '200'],
      ),
    ).rejects.toThrow(Stop);
    expect(calls).toHaveLength(1);
    const o = calls[0]!;
    expect(o.methods).toEqual([
      { method: 'uniform', file: 'a/uniform.jsonl' },
      { method: 'uniform#2', file: 'b/uniform.jsonl' },
      { method: 'sharpest', file: 'x/sharpest.jsonl.zst' },
    ]);
    expect(o).toMatchObject({
      data: 'D',
      track: 'T',
      protocol: 'listwise',
      bothOrders: false,
      disagreement: 'error',
      missing: 'error',
      maxCalls: 12,
      bootstrapB: 200,
      seed: '0',
    });
    expect(o.judge.spec).toBe('openai:m@http://127.0.0.1:9/v1');
    expect(o.signal).toBeInstanceOf(AbortSignal);
    expect(o).not.toHaveProperty('dryRun');
  });

  it('--dry-run calls the plan, never the evaluation (issue 58 item 1: a dry run is its own function)', async () => {
    const plan = withFake('planHero');
    await expect(
      plan.run(
        ...['hero', 'evaluate', '--selections', 'a/m.jsonl', '--data', 'D', '--track', 'T', ...judge()],
        '--dry-run',
      ),
    ).rejects.toThrow(Stop);
    expect(plan.calls).toHaveLength(1);
    expect(plan.calls[0]!.methods).toEqual([{ method: 'm', file: 'a/m.jsonl' }]);
    const evaluate = withFake('evaluateHero');
    await expect(
      evaluate.run(
        ...['hero', 'evaluate', '--selections', 'a/m.jsonl', '--data', 'D', '--track', 'T', ...judge()],
        '--dry-run',
      ),
    ).rejects.not.toThrow(Stop);
    expect(evaluate.calls).toHaveLength(0);
  });

  it.each([
    [['--protocol', 'ranked'], /--protocol must be/],
    [['--protocol', 'pairwise', '--both-orders'], /--both-orders applies to --protocol listwise/],
    [['--disagreement', 'vote'], /--disagreement must be/],
    [['--missing', 'skip'], /--missing must be error, zero, got "skip"/],
    [['--bootstrap', '50'], /--bootstrap/],
    [['--max-calls', '-1'], /--max-calls/],
  ])('%j is a usage error before anything runs', async (extra, message) => {
    const { calls, run } = withFake('evaluateHero');
    const e = await run(
      ...['hero', 'evaluate', '--selections', 's.jsonl', '--data', 'D', '--track', 'T', ...judge(), ...extra],
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toMatch(message);
    expect(calls).toHaveLength(0);
  });

  it('a missing required flag is commander’s usage error (exit 2 at the edge)', async () => {
    const { calls, run } = withFake('evaluateHero');
    const e = await run('hero', 'evaluate', '--data', 'D', '--track', 'T').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CommanderError);
    expect((e as CommanderError).message).toMatch(/--selections/);
    expect(calls).toHaveLength(0);
  });
});

describe('hero build, select and track rebuild', () => {
  it('build: chains per film, rubric learning and its limits', async () => {
    const { calls, run } = withFake('buildChains');
    await expect(
      run(
        ...['hero', 'build', '--data', 'D', '--lsmdc', 'L', '--stills', 'S', ...judge()],
        ...['--chains-per-film', '3', '--learn-rubric', '--rounds', '4'],
      ),
    ).rejects.toThrow(Stop);
    expect(calls[0]).toMatchObject({
      data: 'D',
      lsmdc: 'L',
      stills: 'S',
      chainsPerFilm: 3,
      learnRubric: true,
      rounds: 4,
      maxRules: 20,
      seed: '0',
    });
    const bad = withFake('buildChains');
    await expect(
      bad.run('hero', 'build', '--data', 'D', '--lsmdc', 'L', '--stills', 'S', ...judge(), '--rounds', '0'),
    ).rejects.toThrow(/--rounds/);
    expect(bad.calls).toHaveLength(0);
  });

  it('select: the method by name, k parsed; an unknown method is a usage error', async () => {
    const { calls, run } = withFake('select');
    await expect(
      run(
        'hero',
        'select',
        '--method',
        'uniform',
        '--data',
        'D',
        '--track',
        'T',
        '--out',
        'o.jsonl',
        '--k',
        '3',
      ),
    ).rejects.toThrow(Stop);
    expect(calls[0]!.method.name).toBe('uniform');
    expect(calls[0]).toMatchObject({ data: 'D', track: 'T', out: 'o.jsonl', k: 3 });
    const bad = withFake('select');
    await expect(
      bad.run('hero', 'select', '--method', 'best-ever', '--data', 'D', '--track', 'T', '--out', 'o.jsonl'),
    ).rejects.toThrow(UsageError);
    await expect(
      bad.run(
        'hero',
        'select',
        '--method',
        'uniform',
        '--data',
        'D',
        '--track',
        'T',
        '--out',
        'o',
        '--k',
        '9',
      ),
    ).rejects.toThrow(/--k/);
    expect(bad.calls).toHaveLength(0);
  });

  it('track rebuild: jobs, a shard and the JPEG quality', async () => {
    const { calls, run } = withFake('rebuildTrack');
    await expect(
      run(
        ...['hero', 'track', 'rebuild', '--lsmdc', 'L', '--data', 'D', '--out', 'O'],
        ...['--jobs', '3', '--shard', '2/5', '--quality', '80'],
      ),
    ).rejects.toThrow(Stop);
    expect(calls[0]).toMatchObject({ lsmdc: 'L', data: 'D', out: 'O', jobs: 3, quality: 80 });
    expect(calls[0]!.shard).toEqual({ k: 2, n: 5 });
    const bad = withFake('rebuildTrack');
    await expect(
      bad.run('hero', 'track', 'rebuild', '--lsmdc', 'L', '--data', 'D', '--out', 'O', '--shard', '6/5'),
    ).rejects.toThrow();
    expect(bad.calls).toHaveLength(0);
  });
});

describe('compass score and evaluate', () => {
  let mini: MiniCompassPaths;
  beforeAll(async () => {
    mini = await sharedMiniCompass();
  });

  it('score: models, modes and metric constants reach the scorer; a bad mode is a usage error', async () => {
    const { calls, run } = withFake('scoreCompass');
    await expect(
      run(
        ...['compass', 'score', '--cases', mini.cases, '--videos', mini.videos, '--model', 'faithful', 'cut'],
        ...['--modes', 'minimal', '--gamma', '0.7', '--out', join(tempDir(), 'o'), '--no-cache'],
      ),
    ).rejects.toThrow(Stop);
    const o = calls[0]!;
    expect(o.models).toEqual(['faithful', 'cut']);
    expect(o.modes).toEqual(['minimal']);
    expect(o.response.gamma).toBe(0.7);
    expect(o.casesFile).toBe(mini.cases);
    expect(o.segmenter).toBe('pixel');
    expect(o.judge).toBeUndefined();
    expect(o.scanCache).toBeUndefined();
    expect(o.signal).toBeInstanceOf(AbortSignal);
    const bad = withFake('scoreCompass');
    await expect(
      bad.run(
        'compass',
        'score',
        '--cases',
        mini.cases,
        '--videos',
        mini.videos,
        '--model',
        'x',
        '--modes',
        'long',
      ),
    ).rejects.toThrow(UsageError);
    expect(bad.calls).toHaveLength(0);
  });

  it('evaluate: runs, budget and the judge segmenter by default (as published)', async () => {
    const { calls, run } = withFake('evaluateCompassRun');
    await expect(
      run(
        ...['compass', 'evaluate', '--cases', mini.cases, '--videos', mini.videos, '--model', 'faithful'],
        ...judge(),
        ...['--runs', '3', '--max-calls', '40', '--out', join(tempDir(), 'o')],
      ),
    ).rejects.toThrow(Stop);
    const o = calls[0]!;
    expect(o).toMatchObject({
      models: ['faithful'],
      modes: ['minimal', 'segment_specific'],
      runs: 3,
      maxCalls: 40,
    });
    expect(o.segmenter).toBe('judge');
    expect(o.judge.spec).toBe('openai:m@http://127.0.0.1:9/v1');
    const pixel = withFake('evaluateCompassRun');
    await expect(
      pixel.run(
        ...['compass', 'evaluate', '--cases', mini.cases, '--videos', mini.videos, '--model', 'faithful'],
        ...judge(),
        ...['--segmenter', 'pixel', '--out', join(tempDir(), 'o')],
      ),
    ).rejects.toThrow(Stop);
    expect(pixel.calls[0]!.segmenter).toBe('pixel');
    const bad = withFake('evaluateCompassRun');
    await expect(
      bad.run(
        ...['compass', 'evaluate', '--cases', mini.cases, '--videos', mini.videos, '--model', 'faithful'],
        ...judge(),
        ...['--runs', '0'],
      ),
    ).rejects.toThrow(/--runs/);
    expect(bad.calls).toHaveLength(0);
  });
});
