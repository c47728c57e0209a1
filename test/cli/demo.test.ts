import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METHODS } from '../../src/hero/select/registry.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';

describe('kfbench demo', () => {
  it('cold: builds the material, judges chains with the emulator, prints the leaderboard; warm: no calls, same board', {
    timeout: 600_000,
  }, async () => {
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
    const again = await runCli(['demo', '--out', out]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/calls: 0 to build chains, 0 for baselines, 0 local-reader answers/);
    expect(readFileSync(join(out, 'hero-eval', 'summary.json'), 'utf8')).toBe(summary);
    expect(again.stdout).toMatch(/112 videos \(0 decoded/);
    expect(readFileSync(join(out, 'compass-response', 'summary.json'), 'utf8')).toBe(compassSummary);
    const heroBoard = (s: string) => s.slice(s.indexOf('== HeroFrame leaderboard'), s.indexOf('calls:'));
    expect(heroBoard(again.stdout)).toBe(heroBoard(r.stdout));
  });
});
