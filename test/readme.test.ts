/** Docs that cannot drift: every `kfbench …` line in the README's sh blocks runs and exits 0. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { ROOT } from './support/paths.js';

function readmeExamples(): string[][] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split('\n'))
    .map((l) => l.trim())
    .filter((l) => l.startsWith('kfbench '))
    .map((l) => l.split(/\s+/).slice(1));
}

describe('README examples', () => {
  const examples = readmeExamples();
  it('there is at least one example per command', () => {
    const commands = new Set(
      examples.map((a) =>
        ['media', 'stats', 'embed', 'judge', 'cache', 'dev'].includes(a[0]!) ? `${a[0]} ${a[1]}` : a[0],
      ),
    );
    for (const c of [
      'media probe',
      'media dhash',
      'media compare',
      'media shots',
      'media sample',
      'media grid',
      'stats bt',
      'stats rank',
      'stats kripp',
      'stats eer',
      'embed similarity',
      'embed calibrate',
      'judge pair',
      'judge insert',
      'cache stats',
      'demo',
    ])
      expect(commands).toContain(c);
  });
  it.each(examples.map((a) => [a.join(' '), a] as const))('kfbench %s', async (_, args) => {
    const r = await runCli([...args]);
    expect(r.code, r.stderr).toBe(0);
  });
});
