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
const OUT = EXAMPLES_DIR;
/** Where `npm run demo` (`kfbench demo`) writes, the mini sets the examples read among it. */
export const DEMO_DIR = 'kfbench-demo';
export const FIXTURES = 'test/fixtures';
/** The examples read the demo's mini sets (after `npm run demo` they are there) and write under OUT. */
export const MINI_HERO = `${DEMO_DIR}/mini-hero`;
export const HERO_DATA = `${MINI_HERO}/heroframe`;
/** A copy of the mini HeroFrame set for `hero build`, which rewrites a dataset's chains (the demo's stay as the demo left them). */
export const BUILT_HERO = `${OUT}/mini-hero`;
export const BUILT_DATA = `${BUILT_HERO}/heroframe`;
export const MINI_COMPASS = `${DEMO_DIR}/mini-compass`;
export const CASES = `${MINI_COMPASS}/cases.jsonl`;
export const NEEDS_HERO = `the mini HeroFrame set, which npm run demo writes (or: npx kfbench hero mini --out ${MINI_HERO})`;
export const NEEDS_COMPASS = `the mini Compass set, which npm run demo writes (or: npx kfbench compass mini --out ${MINI_COMPASS})`;
export const NEEDS_READER = `the mini HeroFrame set and its fitted reader: npx kfbench hero fit-reader --data ${HERO_DATA} --out ${OUT}/reader.json`;
export const READER = `local:${OUT}/reader.json`;
export const kf = (args: string) => `npx kfbench ${args}`;
