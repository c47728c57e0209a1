/** `kfbench hero prompt`: the exact text HeroFrame's reader gets, and the release example checked against it. */
import type { Command } from 'commander';
import { BadInputError } from '../errors.js';
import { showReaderPrompt } from '../hero/reader/prompt.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS, type WithLayout } from './flags.js';
import { addLayoutFlag } from './layout-flag.js';
import { parseNumberFlag, printJson } from './output.js';

const PROMPT_FLAG_SPECS = flagSpecs({
  data: { flags: '--data <dir>', description: 'dataset root', required: true },
  chain: { flags: '--chain <k>', description: "which of the film's chains (0-based)", default: '0' },
  promptTemplate: {
    flags: '--prompt-template <file>',
    description:
      "the reader's prompt as a template (default: derived from eval/judge_prompt_example.md, else kfbench's wording)",
  },
  check: {
    flags: '--check',
    description:
      "compare the rendering of the example's film with eval/judge_prompt_example.md (exit 3 and a diff when they differ)",
  },
  ...JSON_FLAG_SPECS,
});

export function registerHeroPrompt(hero: Command): void {
  const cmd = hero
    .command('prompt [film]')
    .description(
      "the listwise prompt the reader gets for a film's chain (image slots as [image k: <image_id>]); --check: re-render the release example's own film and compare byte for byte",
    );
  addLayoutFlag(addFlags(cmd, PROMPT_FLAG_SPECS)).action(
    async (film: string | undefined, o: WithLayout<FlagValues<typeof PROMPT_FLAG_SPECS>>) => {
      const chain = parseNumberFlag('--chain', o.chain, (n) => Number.isInteger(n) && n >= 0);
      const r = await showReaderPrompt({
        data: o.data,
        layout: o.layout,
        film,
        chain,
        promptTemplate: o.promptTemplate,
        check: !!o.check,
      });
      const warnings = r.prompt.not_placed.map((w) => `warning: ${r.prompt.file} — not placed: ${w}\n`);
      const absent = r.prompt.absent?.length
        ? `absent from the example: ${r.prompt.absent.join(', ')} (so no film's prompt has one)\n`
        : '';
      if (o.json) printJson(r);
      else if (r.check) {
        process.stderr.write(warnings.join(''));
        const o = r.check.order;
        process.stdout.write(
          r.check.diff === ''
            ? `${r.check.file}: the ${r.prompt.source} prompt re-rendered on ${r.check.film} is byte for byte the example\n${absent}`
            : r.check.diff,
        );
        process.stdout.write(
          o.equal
            ? `image order: the example's ${o.example.length} images are in the order kfbench sends them (chain ${o.chain} best first, then the candidate)\n`
            : `image order differs: ${o.reason}\n  example: ${o.example.join(' ')}\n  kfbench: ${o.kfbench.join(' ')}\n`,
        );
      } else {
        process.stderr.write(
          `${r.prompt.source} prompt ${r.prompt.version}${r.prompt.file ? ` (${r.prompt.file})` : ''}\n${absent}${warnings.join('')}`,
        );
        process.stdout.write(r.text);
      }
      if (r.check && !r.check.equal)
        throw new BadInputError(
          r.check.diff === ''
            ? `the example sends its images in another order than kfbench (above): ${r.check.order.reason}`
            : `the ${r.prompt.source} prompt re-rendered on ${r.check.film} differs from the example (diff above)`,
          { file: r.check.file },
        );
    },
  );
}
