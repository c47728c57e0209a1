/**
 * The command tree: one file per command group, each action calling one library function. The
 * functions that do the work come in `impls` (the library's by default), so the parser can be
 * tested with fakes.
 */

import { type Command, Help, type Option } from 'commander';
import { resolveLayout } from '../hero/dataset/layout-map.js';
import { EMULATOR_NOTE, isEmulatorJudge } from '../judge/emulator-note.js';
import { KfbenchCommand } from './command.js';
import { registerCompass } from './compass.js';
import { registerDemo } from './demo.js';
import { registerDev } from './dev.js';
import { registerEmbed } from './embed.js';
import { cliEnv } from './env.js';
import { exampleOf, helpText } from './help.js';
import { registerHero } from './hero.js';
import { type CliImpls, LIBRARY } from './impls.js';
import { registerJudge } from './judge.js';
import { registerMedia } from './media.js';
import { registerMerge } from './merge.js';
import { noteAfterRun } from './output.js';
import { registerServe } from './serve.js';
import { registerStats } from './stats.js';

export function buildProgram(impls: CliImpls = LIBRARY): Command {
  const program = new KfbenchCommand('kfbench')
    .description(
      'Score keyframes: HeroFrame (key-frame selection) and Compass (keyframe-conditioned video generation).',
    )
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({
      outputError: (str, write) => write(`kfbench: ${oneLine(str)}\n`),
    });
  registerMedia(program);
  registerStats(program);
  registerEmbed(program);
  registerJudge(program);
  registerHero(program, impls);
  registerCompass(program, impls);
  registerMerge(program);
  registerDev(program);
  registerDemo(program);
  registerServe(program);
  const walk = (cmd: Command, path: string[]) => {
    cmd.exitOverride();
    // --help marks required options, as docs/cli.md does
    cmd.configureHelp({
      optionDescription: (opt: Option) =>
        `${Help.prototype.optionDescription.call(cmd.createHelp(), opt)}${opt.mandatory ? ' (required)' : ''}`,
    });
    cmd.configureOutput({
      outputError: (str, write) => write(`kfbench: ${oneLine(str)}\n`),
    });
    if ((path[0] === 'hero' || path[0] === 'serve') && cmd.options.some((o) => o.long === '--data'))
      addLayoutOption(cmd);
    const e = cmd.commands.length ? undefined : exampleOf(path.join(' '));
    if (e) cmd.addHelpText('after', helpText(e));
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  for (const cmd of program.commands) walk(cmd, [cmd.name()]);
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
 * commander's message on one line, as kfbench's own are: `error: ` dropped, its suggestion
 * ("\n(Did you mean --selections?)") folded in as ` (did you mean --selections?)`.
 */
function oneLine(str: string): string {
  return str
    .replace(/^error: /, '')
    .trim()
    .replace(/\s*\n\(Did you mean (.+)\?\)$/, ' (did you mean $1?)');
}

/**
 * `--layout FILE` on every command that reads a HeroFrame root. The map is resolved here, once,
 * before the command runs (`--layout`, else `KFBENCH_HERO_LAYOUT` read in env.ts, else the
 * built-in map; an unknown key is bad input naming it), and the action gets the map itself as
 * `o.layout`, which it passes down as a parameter (issue 47 item 5): nothing below src/cli reads
 * the variable.
 */
function addLayoutOption(cmd: Command): void {
  cmd.option(
    '--layout <file>',
    'layout map of the HeroFrame files (JSON, see docs/heroframe.md; default $KFBENCH_HERO_LAYOUT, else built in)',
  );
  cmd.hook('preAction', (c) => {
    const file: unknown = c.opts().layout;
    c.setOptionValue('layout', resolveLayout(typeof file === 'string' ? file : cliEnv().heroLayout));
  });
}
