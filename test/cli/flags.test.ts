/**
 * A command's flags are declared once (issue 47 item 7): from one const object of flag specs come
 * the commander registration (so --help and docs/cli.md) and the type of the parsed options. A
 * flag added to a declaration is in the help and in the typed options without a second edit.
 */
import { Command, CommanderError } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { addFlags, type FlagValues, flagSpecs, requireFlags } from '../../src/cli/flags.js';
import type { EvaluateFlags as HeroEvaluateFlags } from '../../src/cli/hero-evaluate.js';
import { judgeFlagSpecs } from '../../src/cli/judge.js';
import { buildProgram } from '../../src/cli/program.js';
import { InternalError } from '../../src/errors.js';
import type { Layout } from '../../src/hero/dataset/layout-map.js';

const BASE = flagSpecs({
  ...judgeFlagSpecs(),
  out: { flags: '--out <dir>', description: 'output folder', default: 'out' },
  cases: { flags: '--cases <file>', description: 'cases.jsonl', required: true },
});

/** The base declaration with one flag more, as a command author would add it. */
const WITH_EXTRA = flagSpecs({
  ...BASE,
  extraThing: { flags: '--extra-thing <n>', description: 'an added flag', default: '3' },
  tags: { flags: '--tags <names...>', description: 'several values' },
  quiet: { flags: '--quiet', description: 'a switch' },
  level: { flags: '--level <n>', description: 'a parsed number', parse: (v: string) => Number(v) },
  store: { flags: '--store <file>', description: 'a file or none', negatable: 'no store' },
});

function parsed<D extends Parameters<typeof addFlags>[1]>(specs: D, args: string[]) {
  const cmd = addFlags(new Command('t').exitOverride().configureOutput({ writeErr: () => undefined }), specs);
  // the program's check of required flags (program.ts)
  cmd.hook('preAction', (c) => requireFlags(c));
  let got: FlagValues<D> | undefined;
  cmd.action((o: FlagValues<D>) => {
    got = o;
  });
  cmd.parse(args, { from: 'user' });
  return { got, help: cmd.helpInformation() };
}

describe('flags declared once', () => {
  it('a flag added to the declaration is in --help and in the parsed, typed options', () => {
    const before = parsed(BASE, ['--cases', 'c.jsonl']);
    expect(before.help).not.toMatch(/--extra-thing/);
    const after = parsed(WITH_EXTRA, [
      ...['--cases', 'c.jsonl', '--extra-thing', '5', '--tags', 'a', 'b'],
      ...['--quiet', '--level', '7', '--no-store', '--judge-url', 'u1', '--judge-url', 'u2'],
    ]);
    expect(after.help).toMatch(/--extra-thing <n>\s+an added flag \(default: "3"\)/);
    expect(after.help).toMatch(/--no-store\s+no store/);
    expect(after.help).not.toMatch(/--cache <file>/); // hidden
    expect(after.got).toMatchObject({
      cases: 'c.jsonl',
      out: 'out',
      extraThing: '5',
      tags: ['a', 'b'],
      quiet: true,
      level: 7,
      store: false,
      judgeUrl: ['u1', 'u2'],
    });
    // the types, inferred from the declaration: present when defaulted or required, else optional
    type O = FlagValues<typeof WITH_EXTRA>;
    expectTypeOf<O['extraThing']>().toEqualTypeOf<string>();
    expectTypeOf<O['cases']>().toEqualTypeOf<string>();
    expectTypeOf<O['out']>().toEqualTypeOf<string>();
    expectTypeOf<O['tags']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<O['quiet']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<O['level']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<O['store']>().toEqualTypeOf<string | false | undefined>();
    expectTypeOf<O['judgeUrl']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<FlagValues<typeof BASE>>().not.toHaveProperty('extraThing');
  });

  it("a required flag's absence is commander's usage error, as before", () => {
    expect(() => parsed(WITH_EXTRA, [])).toThrow(CommanderError);
    expect(() => parsed(WITH_EXTRA, [])).toThrow("required option '--cases <file>' not specified");
  });

  it('a key that is not the name commander gives the value is refused when the command is built', () => {
    const wrong = flagSpecs({ extra: { flags: '--extra-thing <n>', description: 'misnamed' } });
    expect(() => addFlags(new Command('t'), wrong)).toThrow(InternalError);
  });

  it("hero evaluate's options are typed from its declaration, the layout map from its --layout flag", async () => {
    expectTypeOf<HeroEvaluateFlags['maxCalls']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<HeroEvaluateFlags['selections']>().toEqualTypeOf<string[]>();
    expectTypeOf<HeroEvaluateFlags['bootstrap']>().toEqualTypeOf<string>();
    expectTypeOf<HeroEvaluateFlags['layout']>().toEqualTypeOf<Layout>();
    const help = (await buildProgram()).commands
      .find((c) => c.name() === 'hero')
      ?.commands.find((c) => c.name() === 'evaluate')
      ?.helpInformation();
    expect(help).toMatch(/--max-calls <n>/);
    expect(help).toMatch(/--layout <file>/);
  });
});
