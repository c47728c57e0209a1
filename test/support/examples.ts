/**
 * Runs the examples of src/cli/help.ts as printed, one group per test file so that the groups run
 * side by side (the examples of one group depend on the group's earlier ones, never on another
 * group's). Examples read the demo's mini sets under kfbench-demo/ and write under kfbench-examples/;
 * each group moves both into its own folder
 * (nothing shared with another file or left from an earlier run) and runs its examples in table
 * order, which puts every example after the ones it needs.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_DIR, EXAMPLES_DIR, type Example } from '../../src/cli/example-paths.js';
import { FOLDER_OUTPUTS, namesFile } from '../../src/cli/folder-files.js';
import { EXAMPLES } from '../../src/cli/help.js';
import { runCli } from './cli.js';
import { ROOT, tempDir } from './paths.js';

/**
 * Each example's group, by its command. `hero mini` and `compass mini` open the groups that read
 * the mini sets (the other hero groups run `hero mini` first, which copies the set built once per
 * run). `hero build` rewrites the mini root's chains, which the later hero examples read, so those
 * stay in one group.
 */
export const EXAMPLE_GROUPS = {
  blocks: /^(media|stats|embed|judge|cache (stats|export|prune)|dev|demo)( |$)/,
  'hero-track': /^hero track /,
  hero: /^(hero (?!track )|merge hero$|cache merge$|serve$)/,
  compass: /^(compass |merge compass$)/,
} as const satisfies Record<string, RegExp>;

export type ExampleGroup = keyof typeof EXAMPLE_GROUPS;

/** The groups an example's command matches (exactly one, which test/cli/docs.test.ts checks). */
export function groupsOf(e: Example): ExampleGroup[] {
  return (Object.keys(EXAMPLE_GROUPS) as ExampleGroup[]).filter((g) => EXAMPLE_GROUPS[g].test(e.command));
}

/** An example's arguments with kfbench-examples/ and kfbench-demo/ (the demo's mini sets) moved into this run's folder. */
function exampleArgs(line: string, root: string): string[] {
  const words = line.split(/\s+/);
  expect(words.slice(0, 2)).toEqual(['npx', 'kfbench']);
  const dir = new RegExp(`(^|[:,=])(${EXAMPLES_DIR}|${DEMO_DIR})/`, 'g');
  return words.slice(2).map((a) => a.replace(dir, `$1${root}/$2/`));
}

/** Starts a command that runs until stopped, waits until its output matches, stops it (SIGTERM). */
function runUntil(args: string[], re: RegExp): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.js'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve, reject) => {
    let stopped = false;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (!stopped && re.test(stdout)) {
        stopped = true;
        child.kill('SIGTERM');
      }
    });
    child.on('error', reject);
    child.on('close', (code) =>
      stopped ? resolve({ code, stdout }) : reject(new Error(`exited ${code}: ${stderr}`)),
    );
  });
}

async function runExample(e: Example, root: string): Promise<void> {
  for (const b of e.before ?? []) {
    const r = await runCli(exampleArgs(b, root));
    expect(r.code, `${b}: ${r.stderr}`).toBe(0);
  }
  const args = exampleArgs(e.line, root);
  if (e.untilStopped) {
    const r = await runUntil(args, e.prints);
    expect(r.code).toBe(0);
    return;
  }
  const r = await runCli(args);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(e.prints);
  checkFolderFiles(e.command, args);
}

/**
 * The folder a folder-writing example wrote holds what its `--help` lists (src/cli/folder-files.ts):
 * every file always written is there, and a folder written whole holds no file the list lacks.
 */
function checkFolderFiles(command: string, args: string[]): void {
  const o = FOLDER_OUTPUTS[command];
  if (!o || args.includes('--dry-run')) return; // a dry run writes nothing
  const at = args.indexOf(o.option);
  expect(at, `${command}: ${o.option}`).toBeGreaterThan(-1);
  const dir = args[at + 1]!;
  const found = (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => p.split(sep).join('/'))
    .sort();
  const always = o.files.filter((f) => f.when === undefined);
  expect(
    always.filter((f) => !found.some((p) => namesFile(f, p))).map((f) => f.name),
    `${command}: listed but not written`,
  ).toEqual([]);
  if (o.kind === 'whole')
    expect(
      found.filter((p) => !o.files.some((f) => namesFile(f, p))),
      `${command}: written but not listed in --help`,
    ).toEqual([]);
}

/** The examples of one group, each a test, in table order; `hero mini` first where a hero group lacks it. */
export function describeExamples(group: ExampleGroup): void {
  const examples = EXAMPLES.filter((e) => groupsOf(e).includes(group));
  const mini = EXAMPLES.find((e) => e.command === 'hero mini')!;
  const needsMini = group.startsWith('hero') && !examples.includes(mini);
  describe(`the examples of src/cli/help.ts: ${group}`, () => {
    const root = tempDir(`kfbench-examples-${group}-`);
    it.each(examples.map((e) => [e.line, e] as const))('%s', async (_, e) => {
      if (needsMini && e === examples[0]) await runExample(mini, root);
      await runExample(e, root);
    });
  });
}
