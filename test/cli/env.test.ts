/**
 * Settings travel through parameters, not the environment (issue 47 item 5): the CLI reads its
 * variables in src/cli/env.ts and passes them down; below src/cli only the documented defaults of
 * a parameter read it, and the shared test sets are keyed on their generator's source.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv } from '../../src/cli/env.js';
import { generatorHash, sourceClosure } from '../support/generator-hash.js';
import { ROOT } from '../support/paths.js';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * Below the CLI, the environment is only the default of a parameter a caller may pass (the judge's
 * settings, the image limit, the hub's settings and time limits, the tools' children's environment)
 * or where the tools are (FFMPEG_PATH, FFPROBE_PATH). The layout map is resolved once in the CLI (program.ts, from --layout or
 * KFBENCH_HERO_LAYOUT) and passed down as a parameter: nothing below src/cli reads it.
 */
const ENV_READS_BELOW_CLI: Record<string, number> = {
  'src/judge/precedence.ts': 1,
  'src/media/image.ts': 1,
  'src/embed/hub.ts': 1,
  // the hub's time limits (KFBENCH_HUB_TIMEOUT_S, issue 55 item 3): a parameter's default
  'src/embed/hub-fetch.ts': 1,
  // where the tools are, and the children's environment (one thread for OpenBLAS/OpenMP unless the
  // user set one, issue 57 item 9): a parameter's default
  'src/media/ffmpeg-processes.ts': 5,
};

describe('the environment', () => {
  it('is read by src/cli/env.ts, an empty variable counting as unset', () => {
    expect(cliEnv({ KFBENCH_MATERIAL_CACHE: '/m', KFBENCH_HERO_LAYOUT: '', KFBENCH_DEBUG: '1' })).toEqual({
      materialCache: '/m',
      heroLayout: undefined,
      debug: true,
    });
    expect(cliEnv({})).toEqual({ materialCache: undefined, heroLayout: undefined, debug: false });
  });

  it('is read below src/cli only where listed: never by the generated sets', () => {
    const reads: Record<string, number> = {};
    for (const f of tsFiles(join(ROOT, 'src'))) {
      const rel = relative(ROOT, f);
      if (rel.startsWith('src/cli/')) continue;
      const n = [...readFileSync(f, 'utf8').matchAll(/process\.env\b/g)].length;
      if (n) reads[rel] = n;
    }
    expect(reads).toEqual(ENV_READS_BELOW_CLI);
  });

  it('KFBENCH_HERO_LAYOUT is read by the CLI only: below src/cli the layout map is a parameter', () => {
    const named: string[] = [];
    for (const f of tsFiles(join(ROOT, 'src'))) {
      const rel = relative(ROOT, f);
      if (rel.startsWith('src/cli/')) continue;
      if (
        /process\.env\b[^;]*HERO_LAYOUT|env\.KFBENCH_HERO_LAYOUT|HERO_LAYOUT_ENV/.test(
          readFileSync(f, 'utf8'),
        )
      )
        named.push(rel);
    }
    expect(named).toEqual([]);
  });
});

describe('the shared test sets', () => {
  it("are keyed on the hash of their generator's source closure, not on a version constant", () => {
    const closure = sourceClosure('src/synthetic/mini-hero.ts');
    expect(closure).toContain('src/synthetic/mini-hero.ts');
    expect(closure).toContain('src/media/ffmpeg.ts');
    expect(generatorHash('src/synthetic/mini-hero.ts')).toMatch(/^[0-9a-f]{16}$/);
    expect(generatorHash('src/synthetic/mini-hero.ts')).not.toBe(
      generatorHash('src/synthetic/mini-compass/build.ts'),
    );
    for (const f of ['mini-hero.ts', 'mini-compass.ts'])
      expect(readFileSync(join(ROOT, 'test', 'support', f), 'utf8')).not.toMatch(/VERSION/);
  });
});
