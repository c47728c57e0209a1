/**
 * The nearest valid value (issue 50 item 7): one edit distance and one rule for every place a value
 * is checked against a list; through the CLI, an unknown option is reported (with commander's own
 * suggestion) before a missing required one, and a mistyped word of a list suggests the valid one.
 */
import { describe, expect, it } from 'vitest';
import { METHODS } from '../src/hero/select/registry.js';
import { didYouMean, editDistance, nearest } from '../src/nearest.js';
import { runCli } from './support/cli.js';

describe('nearest', () => {
  it('counts inserts, deletes, substitutions and a swap of neighbours as one edit each', () => {
    expect(editDistance('uniform', 'uniform')).toBe(0);
    expect(editDistance('unifrom', 'uniform')).toBe(1);
    expect(editDistance('unform', 'uniform')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
  it('suggests the nearest valid value, ignoring case and - vs _; nothing when none is near or the value is valid', () => {
    const methods = METHODS.map((m) => m.name);
    expect(nearest('unifrom', methods)).toBe('uniform');
    expect(nearest('ffmpeg_thumbnail', methods)).toBe('ffmpeg-thumbnail');
    expect(nearest('Sharpest', methods)).toBe('sharpest');
    expect(nearest('uniform', methods)).toBeUndefined();
    expect(nearest('zzzzzz', methods)).toBeUndefined();
    expect(nearest('x'.repeat(100_000), methods)).toBeUndefined();
    expect(didYouMean('api-key', ['api_key', 'cache'])).toBe(' (did you mean "api_key"?)');
    expect(didYouMean('qqq', ['api_key', 'cache'])).toBe('');
  });
});

describe('the CLI suggests what was meant', () => {
  it('hero evaluate --selection FILE: names the unknown option and suggests --selections (not only "--selections is required")', async () => {
    const r = await runCli(['hero', 'evaluate', '--selection', 'sel.jsonl', '--data', 'x', '--track', 'y']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe("kfbench: unknown option '--selection' (did you mean --selections?)\n");
    // without an unknown option the missing one is still named
    const missing = await runCli(['hero', 'evaluate', '--data', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option '--selections <files\.\.\.>' not specified/);
  });
  it('hero select --method unifrom suggests uniform; compass score --modes minimall suggests minimal', async () => {
    const r = await runCli([
      'hero',
      'select',
      '--method',
      'unifrom',
      '--data',
      'x',
      '--track',
      'y',
      '--out',
      'z',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('got "unifrom" (did you mean "uniform"?)');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const modes = await runCli([
      ...['compass', 'score', '--cases', 'x', '--videos', 'y', '--out', 'z', '--model', 'm'],
      ...['--modes', 'minimal,minimall'],
    ]);
    expect(modes.code, modes.stderr).toBe(2);
    expect(modes.stderr).toContain('got "minimall" (did you mean "minimal"?)');
  });
});
