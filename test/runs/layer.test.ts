/**
 * The runs layer (src/runs/, issue 47 item 1): one function per command, exported by the library
 * and called by the CLI, each taking one typed options object; the CLI only parses into it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compassEvaluateInput } from '../../src/cli/compass-evaluate.js';
import { heroEvaluateInput } from '../../src/cli/hero-evaluate.js';
import { LIBRARY, loadedOf } from '../../src/cli/impls.js';
import { defaultLayout } from '../../src/hero/dataset/layout-map.js';
import * as api from '../../src/index.js';
import type { DemoPart } from '../../src/runs/demo.js';
import { ROOT, tempDir } from '../support/paths.js';

describe('src/runs', () => {
  it('the library exports each run, and the CLI calls the same function', async () => {
    for (const n of [
      'runDemo',
      'evaluateHeroFolder',
      'evaluateCompassRun',
      'planCompassEvaluation',
      'scoreCompass',
      'mergeHeroRun',
      'mergeCompassRun',
      'buildChainsRun',
      'selectRun',
    ])
      expect(api, n).toHaveProperty(n);
    // loaded when called (issue 58 item 6): what the CLI's entry loads is the export
    expect(await loadedOf(LIBRARY.evaluateHero)).toBe(api.evaluateHeroFolder);
    expect(await loadedOf(LIBRARY.evaluateCompassRun)).toBe(api.evaluateCompassRun);
  });

  it('no run lives outside src/runs: report/, hero/ and compass/ hold no command orchestration files', () => {
    const files = (d: string) => readdirSync(join(ROOT, 'src', d));
    expect(files('compass').filter((f) => /^run-/.test(f))).toEqual([]);
    expect(files('hero')).not.toContain('run.ts');
    expect(readFileSync(join(ROOT, 'src', 'report', 'hero-outputs.ts'), 'utf8')).not.toMatch(
      /export (async )?function (evaluateHeroFolder|mergeHeroRun)/,
    );
    expect(readFileSync(join(ROOT, 'src', 'store', 'shards.ts'), 'utf8')).not.toMatch(
      /--shard|(hero|compass) (evaluate|score|build|select)/,
    );
  });

  it('runDemo takes an options object, hands each part over as it is done and returns them', async () => {
    const out = tempDir();
    const parts: DemoPart['part'][] = [];
    const r = await api.runDemo({ out, mediaOnly: true, onPart: (p) => parts.push(p.part) });
    expect(parts).toEqual(['media']);
    expect(r.media.info.frames).toBeGreaterThan(0);
    expect(r.hero).toBeUndefined();
  });
});

describe('the CLI parses flags into the run options object', () => {
  it('hero evaluate: the judge cache defaults into --out, a repeated method name is numbered', () => {
    const o = heroEvaluateInput({
      selections: ['a/m.jsonl', 'b/m.jsonl'],
      data: 'd',
      layout: defaultLayout(),
      track: 't',
      protocol: 'listwise',
      disagreement: 'error',
      stills: 'all',
      missing: 'error',
      out: 'outdir',
      seed: '0',
      bootstrap: '1000',
      maxUnresolved: '0',
      judge: 'local:reader.json',
    });
    expect(o.judge.cache).toBe(join('outdir', 'judge-cache.sqlite'));
    expect(o.methods.map((m) => m.method)).toEqual(['m', 'm#2']);
    expect(o.bootstrapB).toBe(1000);
  });

  it('compass evaluate: a bad --keyframe-control is a usage error before any run, dry or not', () => {
    const flags = {
      cases: 'c.jsonl',
      videos: 'v',
      model: ['m'],
      modes: 'minimal',
      out: 'o',
      runs: '1',
      missing: 'zero',
      segmenter: 'judge',
      keyframeControl: 'sideways',
      videoQuality: 'groups',
      jointCases: 'answered',
      qualityFps: '1',
      frameWidth: '256',
      maxTokens: '2048',
      itemRule: 'strict',
      jobs: '1',
      maxUnresolved: '0',
      judge: 'local:reader.json',
      embedder: 'builtin',
      device: 'cpu',
      holdEps: '0.02',
      psnrLow: '20',
      psnrHigh: '40',
      ssimLow: '0.5',
      ssimHigh: '0.95',
      fusion: '0.5',
      kfsFrame: 'tie',
      kfsTie: '0.02',
      placeAt: 'hold',
      positionFraction: '0.1',
      persistenceS: '1',
      uniqueGapS: '0.5',
      fpsCap: '30',
      pixelSize: '0',
      decodeThreads: '0',
      keyframeFit: 'crop',
      matchSize: '0',
      holdToleranceDb: 'off',
      holdMatchDb: '1',
      maxDuration: '600',
      dryRun: true,
    };
    expect(() => compassEvaluateInput(flags)).toThrow(/--keyframe-control/);
  });
});
