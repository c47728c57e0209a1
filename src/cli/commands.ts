/**
 * The command table: every top-level command's name and one-line description, and where its
 * module is (issue 58 item 6). It imports nothing of the commands: `kfbench --version` and
 * `kfbench --help` read this table only, and a command line loads the module of the one command it
 * names (`kfbench media probe` loads `media.js`, not sharp, onnxruntime or the canvas).
 *
 * A command's module exports a `register…(cmd, impls)` that adds the subcommands, flags and
 * actions to the command created here from its row.
 */
import type { Command } from 'commander';
import type { CliImpls } from './impls.js';

type Register = (cmd: Command, impls: CliImpls) => void;

export interface CommandRow {
  readonly name: string;
  readonly description: string;
  /**
   * How the root's --help names a command with flags of its own (`demo [options]`), for the help
   * printed before its module is loaded; a test checks it against the loaded command's.
   */
  readonly term?: string;
  load(): Promise<Register>;
}

export const COMMANDS: readonly CommandRow[] = [
  {
    name: 'media',
    description: 'video and image building blocks',
    load: async () => (await import('./media.js')).registerMedia,
  },
  {
    name: 'stats',
    description: 'statistics on your own data',
    load: async () => (await import('./stats.js')).registerStats,
  },
  {
    name: 'embed',
    description: 'image embedders: builtin, an ONNX model on disk or one from the model hub',
    load: async () => (await import('./embed.js')).registerEmbed,
  },
  {
    name: 'judge',
    description: 'ask a judge (a VLM server or the local reader) by hand',
    load: async () => (await import('./judge.js')).registerJudge,
  },
  {
    name: 'cache',
    description: 'the judge cache (SQLite)',
    load: async () => (await import('./judge.js')).registerCache,
  },
  {
    name: 'hero',
    description: 'HeroFrame: key-frame selection scored by chain insertion',
    load: async () => (await import('./hero.js')).registerHero,
  },
  {
    name: 'compass',
    description: 'Compass: keyframe-conditioned video generation',
    load: async () => (await import('./compass.js')).registerCompass,
  },
  {
    name: 'merge',
    description:
      'merge the folders of a sharded run (--shard k/n) into the outputs of an unsharded one; refuses shards of other inputs, settings or judge, and a film or case missing or held twice',
    load: async () => (await import('./merge.js')).registerMerge,
  },
  {
    name: 'dev',
    description: 'development tools',
    load: async () => (await import('./dev.js')).registerDev,
  },
  {
    name: 'demo',
    description: 'build small generated material and run kfbench on it (no network, no GPU)',
    term: 'demo [options]',
    load: async () => (await import('./demo.js')).registerDemo,
  },
  {
    name: 'serve',
    description:
      'the read-only local viewer: leaderboards, films with their chains, Compass cases with their videos',
    term: 'serve [options]',
    load: async () => (await import('./serve.js')).registerServe,
  },
];

/**
 * The row of the command a command line names: its first operand (`kfbench hero evaluate …`), or
 * the one after `help` (`kfbench help hero`); none for `--version`, `--help` or a misspelt
 * command, which commander then reports from the table alone.
 */
export function commandNamed(args: readonly string[]): CommandRow | undefined {
  const operands = args.filter((a) => !a.startsWith('-'));
  const name = operands[0] === 'help' ? operands[1] : operands[0];
  return COMMANDS.find((c) => c.name === name);
}
