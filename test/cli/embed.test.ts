import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { media, ROOT, tempDir } from '../support/paths.js';

const EMB = join(ROOT, 'test', 'fixtures', 'embed');

describe('kfbench embed', () => {
  it('similarity --json', async () => {
    const r = await runCli(['embed', 'similarity', media('base.png'), media('noise.png'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['cosine']);
    expect(j.cosine).toBeGreaterThan(0.9);
  });

  it('similarity with an ONNX model', async () => {
    const r = await runCli([
      'embed',
      'similarity',
      join(EMB, 'img0.png'),
      join(EMB, 'img1.png'),
      '--embedder',
      `onnx:${join(EMB, 'tiny-vit.onnx')}`,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(Math.abs(JSON.parse(r.stdout).cosine)).toBeLessThanOrEqual(1);
  });

  it('--device cuda without a CUDA execution provider: exit 4 naming what is missing; --device gpu: exit 2', async () => {
    const args = ['embed', 'similarity', join(EMB, 'img0.png'), join(EMB, 'img1.png')];
    const model = ['--embedder', `onnx:${join(EMB, 'tiny-vit.onnx')}`];
    // this machine and CI have no CUDA build of ONNX Runtime: the message says what to install
    const cuda = await runCli([...args, ...model, '--device', 'cuda', '--threads', '2']);
    expect(cuda.code, cuda.stderr).toBe(4);
    expect(cuda.stderr).toMatch(/--device cuda: ONNX Runtime's CUDA execution provider could not be loaded/);
    expect(cuda.stderr).toMatch(/cuDNN/);
    expect(cuda.stderr.trim().split('\n')).toHaveLength(1);
    const bad = await runCli([...args, ...model, '--device', 'gpu']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--device must be cpu or cuda/);
  });

  it('calibrate --json (relative paths resolve against the pairs file), with a cache', async () => {
    const cache = join(tempDir(), 'c.sqlite');
    const r = await runCli([
      'embed',
      'calibrate',
      '--pairs',
      join(EMB, 'pairs.jsonl'),
      '--gamma',
      '0.8',
      '--cache',
      cache,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j).sort()).toEqual([
      'at',
      'eer',
      'margin',
      'negatives',
      'positives',
      'recommended',
      'threshold',
    ]);
    expect(j.positives.n).toBe(5);
    expect(j.negatives.n).toBe(5);
    expect(j.at.threshold).toBe(0.8);
    expect(j.positives.min_cos).toBeGreaterThan(j.negatives.max_cos); // these fixtures separate cleanly
    expect(j.eer).toBe(0);
    // cleanly separated: the EER threshold is the lowest positive; the γ to use is the middle of the gap
    expect(j.margin).toBeCloseTo(j.positives.min_cos - j.negatives.max_cos, 12);
    expect(j.recommended).toBeCloseTo((j.positives.min_cos + j.negatives.max_cos) / 2, 12);
    const text = await runCli(['embed', 'calibrate', '--pairs', join(EMB, 'pairs.jsonl'), '--cache', cache]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`separated: a margin of ${j.margin.toFixed(4)}`);
    expect(text.stdout).toContain(`use γ = ${j.recommended.toFixed(4)} (the middle of the margin)`);
  });

  it.each([
    [
      ['embed', 'similarity', media('base.png'), media('truncated.jpg')],
      3,
      /truncated\.jpg: not a readable image/,
    ],
    [
      ['embed', 'similarity', media('base.png'), media('coffee.png'), '--embedder', 'clip'],
      2,
      /--embedder must be builtin \| onnx:PATH/,
    ],
    [
      [
        'embed',
        'similarity',
        media('base.png'),
        media('coffee.png'),
        '--embedder',
        `onnx:${join(EMB, 'not-a-model.onnx')}`,
        '--input-size',
        '32',
      ],
      3,
      /not-a-model\.onnx: not a loadable ONNX model/,
    ],
  ])('%j → exit %i', async (args, code, msg) => {
    const r = await runCli(args as string[]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an unreadable image in the pairs names the image, exit 3', async () => {
    const dir = tempDir();
    const pairs = join(dir, 'p.jsonl');
    writeFileSync(pairs, `${JSON.stringify({ a: media('base.png'), b: 'missing.png', label: 1 })}\n`);
    const r = await runCli(['embed', 'calibrate', '--pairs', pairs, '--json']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/missing\.png: no such file/);
  });
});
