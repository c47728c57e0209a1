/**
 * Docs that cannot drift: every `kfbench …` line in the README's sh blocks runs and exits 0.
 * The README writes under /tmp/kfbench-readme…; the test gives each run its own folder for those
 * paths (nothing shared with another run or left from an earlier one) and runs the examples that
 * build the mini sets first, then the rest in README order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { ROOT, tempDir } from './support/paths.js';

function readmeExamples(): string[][] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split('\n'))
    .map((l) => l.trim())
    .filter((l) => l.startsWith('kfbench '))
    .map((l) => l.split(/\s+/).slice(1));
}

/** The command an example runs: "media probe", "hero track rebuild", "demo" … */
function commandOf(args: string[]): string {
  const words = args.filter((a) => !a.startsWith('-') && !a.includes('/') && !a.includes('.'));
  if (words[0] === 'hero' && (words[1] === 'track' || words[1] === 'analyze'))
    return words.slice(0, 3).join(' ');
  if (words[0] === 'demo' || words[0] === 'serve') return words[0];
  return words.slice(0, 2).join(' ');
}

const COMMANDS = [
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
  'hero mini',
  'hero validate',
  'hero check-selections',
  'hero track rebuild',
  'hero track verify',
  'hero track make-index',
  'hero select',
  'hero fit-reader',
  'hero build',
  'hero check-reader',
  'hero evaluate',
  'hero analyze corpus',
  'hero analyze position',
  'hero analyze human',
  'hero analyze rubric-swap',
  'compass mini',
  'compass validate',
  'compass response',
  'compass score',
  'compass sensitivity',
  'compass grid',
  'compass prompts',
  'compass evaluate',
  'compass report',
  'compass align',
  'merge hero',
  'serve',
  'demo',
];

/** Examples that make the material others read: they run first. */
const BUILDERS = new Set(['hero mini', 'compass mini']);

/** The README's /tmp/kfbench-readme… paths, moved into this run's own folder. */
function privatePaths(args: readonly string[], root: string): string[] {
  return args.map((a) => a.replaceAll('/tmp/kfbench-readme', `${root}/kfbench-readme`));
}

describe('README examples', () => {
  const root = tempDir('kfbench-readme-run-');
  const readme = readmeExamples();
  const examples = [
    ...readme.filter((a) => BUILDERS.has(commandOf(a))),
    ...readme.filter((a) => !BUILDERS.has(commandOf(a))),
  ];
  it('there is at least one example per command', () => {
    const seen = new Set(examples.map(commandOf));
    for (const c of COMMANDS) expect(seen).toContain(c);
  });
  it.each(examples.map((a) => [a.join(' '), a] as const))('kfbench %s', async (_, args) => {
    const r = await runCli(privatePaths(args, root));
    expect(r.code, r.stderr).toBe(0);
  });
});
