/**
 * `--layout FILE`, declared by each command that reads a HeroFrame root (issue 58 item 7: in the
 * open, where the command's other flags are, not added by a rule of the program). The map is
 * resolved once, before the command runs (`--layout`, else `KFBENCH_HERO_LAYOUT` read in env.ts,
 * else the built-in map; an unknown key is bad input naming it), and the action gets the map
 * itself as `o.layout` (`WithLayout<…>` in flags.ts), which it passes down as a parameter (issue 47
 * item 5): nothing below src/cli reads the variable.
 */
import type { Command } from 'commander';
import { resolveLayout } from '../hero/dataset/layout-map.js';
import { cliEnv } from './env.js';

export function addLayoutFlag(cmd: Command): Command {
  cmd.option(
    '--layout <file>',
    'layout map of the HeroFrame files (JSON, see docs/heroframe.md; default $KFBENCH_HERO_LAYOUT, else built in)',
  );
  cmd.hook('preAction', (c) => {
    const file: unknown = c.opts().layout;
    c.setOptionValue('layout', resolveLayout(typeof file === 'string' ? file : cliEnv().heroLayout));
  });
  return cmd;
}
