/**
 * The command tree: the root, and the commands of the table in commands.ts, each from its own
 * module, each action calling one library function. A command line loads the module of the
 * command it names only (`buildProgram(impls, argv)`); the others are listed from the table. The
 * functions that do the work come in `impls` (the library's by default, each loaded when called),
 * so the parser can be tested with fakes.
 */

import { Command, Help, type Option } from 'commander';
import { EMULATOR_NOTE, isEmulatorJudge } from '../judge/emulator-note.js';
import { COMMANDS, type CommandRow, commandNamed } from './commands.js';
import { isRequired, requireFlags } from './flags.js';
import { type CliImpls, LIBRARY } from './impls.js';
import { noteAfterRun } from './output.js';

/**
 * The program, with every command's module loaded, or, given a command line's arguments (after
 * `node bin.js`), with only the module of the command it names.
 */
export async function buildProgram(impls: CliImpls = LIBRARY, args?: readonly string[]): Promise<Command> {
  const program = createRoot();
  const named = args === undefined ? undefined : commandNamed(args);
  for (const row of COMMANDS) {
    const cmd = program.command(row.name).description(row.description);
    if (args === undefined || row === named) {
      (await row.load())(cmd, impls);
      finish(cmd, [row.name], args === undefined || asksHelp(args) ? await import('./help.js') : undefined);
    }
  }
  return program;
}

function createRoot(): Command {
  const program = new Command('kfbench')
    .description(
      'Score keyframes: HeroFrame (key-frame selection) and Compass (keyframe-conditioned video generation).',
    )
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({
      outputError: (str, write) => write(`kfbench: ${oneLine(str)}\n`),
    })
    .configureHelp({
      // a command not loaded has no flags yet: named as the loaded one would be
      subcommandTerm: (cmd: Command) =>
        rowOf(cmd)?.term ?? Help.prototype.subcommandTerm.call(new Help(), cmd),
    });
  // required flags are checked after unknown ones (issue 50 item 7): see flags.ts
  program.hook('preAction', (_p, action) => requireFlags(action));
  // the emulator is no judge: said on stderr with its numbers (issue 57 item 5; by bin.ts once the
  // command has run, so that a refusal stays one line)
  program.hook('preAction', (_p, action) => {
    const o = action.opts() as { judge?: unknown; reader?: unknown };
    const spec = [o.judge, o.reader].find((v): v is string => typeof v === 'string' && isEmulatorJudge(v));
    if (spec) noteAfterRun(`note: ${spec}: ${EMULATOR_NOTE}`);
  });
  program.addHelpText(
    'after',
    "\nRun it from the repository root as npx kfbench …; every command's --help shows a runnable example.",
  );
  return program;
}

/**
 * Whether a command line asks for help, which shows each command's example: the examples list the
 * files their writers write, so help.js loads the writers' modules, and a command that runs does
 * not need them.
 */
function asksHelp(args: readonly string[]): boolean {
  return args.some((a) => a === '--help' || a === '-h') || args.find((a) => !a.startsWith('-')) === 'help';
}

function rowOf(cmd: Command): CommandRow | undefined {
  return cmd.parent?.parent ? undefined : COMMANDS.find((r) => r.name === cmd.name());
}

/**
 * What every loaded command gets: exits thrown, errors on one line, required flags marked in its
 * --help, and its example there when `help` is given.
 */
function finish(cmd: Command, path: string[], help: typeof import('./help.js') | undefined): void {
  cmd.exitOverride();
  // --help marks required options, as docs/cli.md does
  cmd.configureHelp({
    optionDescription: (opt: Option) =>
      `${Help.prototype.optionDescription.call(cmd.createHelp(), opt)}${isRequired(opt) ? ' (required)' : ''}`,
  });
  cmd.configureOutput({
    outputError: (str, write) => write(`kfbench: ${oneLine(str)}\n`),
  });
  const e = cmd.commands.length ? undefined : help?.exampleOf(path.join(' '));
  if (e) cmd.addHelpText('after', help!.helpText(e));
  for (const sub of cmd.commands) finish(sub, [...path, sub.name()], help);
}

/**
 * commander's message on one line, as kfbench's own are: `error: ` dropped, its suggestion
 * ("\n(Did you mean --selections?)") folded in as ` (did you mean --selections?)`.
 */
function oneLine(str: string): string {
  return str
    .replace(/^error: /, '')
    .trim()
    .replace(/\s*\n\(Did you mean (.+)\?\)$/, ' (did you mean $1?)');
}
