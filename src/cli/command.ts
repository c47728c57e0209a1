/**
 * commander's Command with one change of order: an unknown option is reported before a missing
 * required one. commander checks required options first, so `hero evaluate --selection FILE` said
 * only "required option '--selections <files...>' not specified", never that `--selection` is
 * not an option nor that `--selections` is the one meant (issue 50 item 7). The report is
 * commander's own (`unknownOption`, with its `showSuggestionAfterError` suggestion).
 */
import { Command, type Option } from 'commander';

/** commander's own methods used here: in its JavaScript (14.0.3), not in its typings. */
interface CommanderInternals {
  missingMandatoryOptionValue(option: Option): void;
  unknownOption(flag: string): void;
  /** The root command's arguments as given to `parse` (set on the root only). */
  rawArgs: string[];
}
const commander = Command.prototype as Command & CommanderInternals;

export class KfbenchCommand extends Command {
  override createCommand(name?: string): KfbenchCommand {
    return new KfbenchCommand(name);
  }

  /** Called by commander for the first required option not given; an unknown option goes first. */
  missingMandatoryOptionValue(option: Option): void {
    const flag = this.firstUnknownOption();
    if (flag !== undefined) commander.unknownOption.call(this, flag);
    commander.missingMandatoryOptionValue.call(this, option);
  }

  /**
   * The first argument that looks like an option and is none of this command's or its parents'.
   * commander has put the operands first in `args` and everything from the first unknown option
   * on after them; an argument after `--` on the command line is an operand.
   */
  private firstUnknownOption(): string | undefined {
    let root: Command = this;
    while (root.parent) root = root.parent;
    const raw = (root as Command & CommanderInternals).rawArgs ?? [];
    const end = raw.indexOf('--');
    const operands = new Set(end < 0 ? [] : raw.slice(end + 1));
    for (const a of this.args) {
      if (a === '--') return undefined;
      if (!a.startsWith('-') || a === '-' || operands.has(a)) continue;
      const name = a.startsWith('--') && a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
      let known = false;
      for (let c: Command | null = this; c && !known; c = c.parent)
        known = c.options.some((o) => o.long === name || o.short === name);
      if (!known) return name;
    }
    return undefined;
  }
}
