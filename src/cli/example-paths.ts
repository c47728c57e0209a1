/** What an example of `--help` is, and the folders and fixtures the examples share. */
export interface Example {
  /** The command's path: "hero track rebuild". */
  command: string;
  /** The full line, as typed: "npx kfbench …". */
  line: string;
  /** What must run first (earlier examples), or nothing. */
  needs?: string;
  /** Command lines to run first, shown under "Needs first" and run by the test before the example. */
  before?: readonly string[];
  /** Files or folders it writes (nothing when absent: it prints only). */
  writes?: string;
  /** What its output (stdout) matches. */
  prints: RegExp;
  /** Runs until stopped (Ctrl-C); the test stops it once `prints` matched. */
  untilStopped?: boolean;
}
/** Where the examples write: a folder of the repository root (git-ignored). */
export const EXAMPLES_DIR = 'kfbench-examples';
export const OUT = EXAMPLES_DIR;
export const FIXTURES = 'test/fixtures';
export const MINI_HERO = `${OUT}/mini-hero`;
export const HERO_DATA = `${MINI_HERO}/heroframe`;
export const MINI_COMPASS = `${OUT}/mini-compass`;
export const CASES = `${MINI_COMPASS}/cases.jsonl`;
export const NEEDS_HERO = `the mini HeroFrame set: npx kfbench hero mini --out ${MINI_HERO}`;
export const NEEDS_COMPASS = `the mini Compass set: npx kfbench compass mini --out ${MINI_COMPASS}`;
export const NEEDS_READER = `the mini HeroFrame set and its fitted reader: npx kfbench hero fit-reader --data ${HERO_DATA} --out ${OUT}/reader.json`;
export const READER = `local:${OUT}/reader.json`;
export const kf = (args: string) => `npx kfbench ${args}`;
