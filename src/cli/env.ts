/**
 * The settings the CLI takes from the environment, read here and passed down as parameters (issue
 * 47 item 5): nothing below src/cli reads these variables. The judge's variables (KFBENCH_JUDGE,
 * KFBENCH_API_KEY, KFBENCH_CACHE, KFBENCH_CLAIM_LEASE_S …) reach `resolveJudgeSettings` as its
 * `env` parameter from src/cli/judge.ts; KFBENCH_PORT is commander's `.env()` default of `serve --port`.
 */

/** A folder where the generated sets are built once and copied from (`hero mini`, `compass mini`, `demo`). */
const MATERIAL_CACHE_ENV = 'KFBENCH_MATERIAL_CACHE';
/** The default of `--layout`: the layout map of the HeroFrame files. */
const HERO_LAYOUT_ENV = 'KFBENCH_HERO_LAYOUT';
/** Any value: an internal error prints its stack. */
const DEBUG_ENV = 'KFBENCH_DEBUG';

export interface CliEnv {
  materialCache: string | undefined;
  heroLayout: string | undefined;
  debug: boolean;
}

/** The environment's settings, an empty variable counting as unset. */
export function cliEnv(env: NodeJS.ProcessEnv = process.env): CliEnv {
  const get = (name: string) => env[name] || undefined;
  return {
    materialCache: get(MATERIAL_CACHE_ENV),
    heroLayout: get(HERO_LAYOUT_ENV),
    debug: get(DEBUG_ENV) !== undefined,
  };
}
