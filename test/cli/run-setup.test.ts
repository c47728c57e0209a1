/**
 * The runs' setup lives in the library: the command files of the runs (compass score, sensitivity,
 * response and evaluate; hero evaluate) parse flags, call one library function and print — none
 * opens an embedder, a judge or a scan cache, or builds a run's records itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const RUN_COMMANDS = ['compass-response.ts', 'compass-evaluate.ts', 'compass-options.ts', 'hero-evaluate.ts'];
const SETUP = [
  'createEmbedder',
  'openJudge',
  'ScanCache',
  'compassShardRecord',
  'heroShardRecord',
  'judgeIdentity',
  'writeShardRecord',
  'writeOutputFolder',
];

describe('run setup', () => {
  it.each(RUN_COMMANDS)('src/cli/%s opens nothing and builds no record itself', (file) => {
    const text = readFileSync(join(ROOT, 'src', 'cli', file), 'utf8');
    const imported = [...text.matchAll(/import\s+(?:type\s+)?\{([^}]+)\}\s+from/g)].flatMap((m) =>
      m[1]!.split(',').map((s) => s.replace(/^\s*type\s+/, '').trim()),
    );
    expect(imported.filter((n) => SETUP.includes(n))).toEqual([]);
  });
});
