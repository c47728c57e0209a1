/**
 * A command's flags declared once (issue 47 item 7): a const object of flag specs, keyed by the
 * name commander gives the parsed value (`--max-calls <n>` → `maxCalls`). From it come both the
 * commander registration (so `--help` and docs/cli.md) and, by inference, the type of the parsed
 * options (`FlagValues<typeof FLAGS>`): no options interface is written by hand beside the flags.
 *
 * The type of a value follows the flag's form: `--x` a boolean, `--x <v>` a string,
 * `--x <v...>` a list of strings, a `parse` its return type; a flag with a default or `required`
 * is always there, any other may be absent. `negatable` adds `--no-x` right after `--x <v>`, the
 * value then `false` when it is given.
 */
import { type Command, Option } from 'commander';
import { InternalError } from '../errors.js';
import type { Layout } from '../hero/dataset/layout-map.js';

interface FlagSpec {
  /** commander's flags: `--name`, `--name <value>`, `--name <values...>`. */
  readonly flags: string;
  readonly description: string;
  readonly default?: string;
  readonly required?: true;
  /** Taken but not in --help (a deprecated spelling). */
  readonly hidden?: true;
  /**
   * commander's argument parser: the value given and the value so far (for a repeatable flag). A
   * method, so that a parser may type what it accumulates (`acc: string[] = []`).
   */
  parse?(value: string, previous: unknown): unknown;
  /**
   * commander's `.env()`: the variable whose value is the default (KFBENCH_PORT of `serve --port`,
   * the one variable read outside src/cli/env.ts; see env.ts).
   */
  readonly env?: string;
  /** The help of `--no-<name>`, added right after (the value is then `false`). */
  readonly negatable?: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** The value of a flag of this form, as commander gives it. */
type RawValue<F extends string> = F extends `${string}...>` | `${string}...]`
  ? string[]
  : F extends `${string}<${string}>`
    ? string
    : boolean;

type Value<S extends FlagSpec> =
  | (S extends { parse(...a: never[]): infer R } ? R : RawValue<S['flags']>)
  | (S extends { negatable: string } ? false : never);

type Present<S extends FlagSpec> = S extends { required: true }
  ? true
  : S extends { default: string }
    ? true
    : false;

type Flatten<T> = { [K in keyof T]: T[K] };

/** The parsed options of a command whose flags are `D`. */
export type FlagValues<D extends FlagSpecs> = Flatten<
  { -readonly [K in keyof D as Present<D[K]> extends true ? K : never]: Value<D[K]> } & {
    -readonly [K in keyof D as Present<D[K]> extends true ? never : K]?: Value<D[K]> | undefined;
  }
>;

/** The declaration as written, its keys and flag forms kept for `FlagValues` (an identity). */
export function flagSpecs<const D extends FlagSpecs>(specs: D): D {
  return specs;
}

/**
 * A hero (or serve) command's options with the layout map program.ts resolves for every command
 * that reads a HeroFrame root (`--layout FILE`, else `KFBENCH_HERO_LAYOUT`, else the built-in map).
 */
export type WithLayout<T> = T & { layout: Layout };

/** `--json` of the commands that can print JSON. */
export const JSON_FLAG_SPECS = flagSpecs({ json: { flags: '--json', description: 'print JSON' } });

/**
 * The flags declared `required`. commander's own mandatory options are checked before unknown
 * ones, so `hero evaluate --selection FILE` said only "required option '--selections <files...>'
 * not specified", never that `--selection` is not an option nor that `--selections` is the one
 * meant (issue 50 item 7). kfbench checks its required flags itself, in a `preAction` hook of the
 * program (`requireFlags`), which commander runs after it has refused an unknown option (with its
 * suggestion), so with public API only (issue 58 item 7).
 */
const REQUIRED = new WeakSet<Option>();

export function isRequired(o: Option): boolean {
  return REQUIRED.has(o);
}

/** The command refused, as commander refuses a missing mandatory option, if a required flag is absent. */
export function requireFlags(cmd: Command): void {
  for (const o of cmd.options) {
    if (isRequired(o) && cmd.getOptionValue(o.attributeName()) === undefined)
      cmd.error(`error: required option '${o.flags}' not specified`, {
        code: 'commander.missingMandatoryOptionValue',
      });
  }
}

/** `spec` as a commander Option, checked to give its value under `key`. */
function optionOf(key: string, spec: FlagSpec): Option {
  const o = new Option(spec.flags, spec.description);
  if (o.attributeName() !== key)
    throw new InternalError(
      `flag ${spec.flags} is declared as "${key}"; commander names it "${o.attributeName()}"`,
    );
  if (spec.env !== undefined) o.env(spec.env);
  if (spec.default !== undefined) o.default(spec.default);
  if (spec.required) REQUIRED.add(o);
  if (spec.hidden) o.hideHelp();
  if (spec.parse) o.argParser<unknown>((v, prev) => spec.parse?.(v, prev));
  return o;
}

/** Every flag of `specs` added to `cmd`, in the declaration's order. */
export function addFlags(cmd: Command, specs: FlagSpecs): Command {
  for (const [key, spec] of Object.entries(specs)) {
    cmd.addOption(optionOf(key, spec));
    if (spec.negatable !== undefined) {
      const no = new Option(`--no-${spec.flags.slice(2).split(/[ <[]/)[0]}`, spec.negatable);
      cmd.addOption(spec.hidden ? no.hideHelp() : no);
    }
  }
  return cmd;
}
