/**
 * Docs that cannot drift: docs/cli.md is what scripts/cli-docs.ts renders from the program, every
 * leaf command has one example (src/cli/help.ts), and every example runs as printed and prints what
 * the table says. Examples write under kfbench-examples/; each test run moves that into its own
 * folder (nothing shared with another run or left from an earlier one) and runs them in table
 * order, which puts every example after the ones it needs.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, EXAMPLES_DIR } from '../../src/cli/help.js';
import { buildProgram } from '../../src/cli/program.js';
import { cliReference } from '../../src/cli/reference.js';
import { runCli } from '../support/cli.js';
import { ROOT, tempDir } from '../support/paths.js';

function leafPaths(cmd: Command, path: string[] = []): string[] {
  if (!cmd.commands.length) return [path.join(' ')];
  return cmd.commands.flatMap((c) => leafPaths(c, [...path, c.name()]));
}

/** An example's arguments with kfbench-examples/ moved into this run's folder. */
function exampleArgs(line: string, root: string): string[] {
  const words = line.split(/\s+/);
  expect(words.slice(0, 2)).toEqual(['npx', 'kfbench']);
  const dir = new RegExp(`(^|[:,=])${EXAMPLES_DIR}/`, 'g');
  return words.slice(2).map((a) => a.replace(dir, `$1${root}/${EXAMPLES_DIR}/`));
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

describe('docs/cli.md and the examples', () => {
  it('docs/cli.md is what scripts/cli-docs.ts writes, and every leaf command has exactly one example', () => {
    const program = buildProgram();
    expect(readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8')).toBe(cliReference(program));
    const leaves = leafPaths(program).sort();
    expect(EXAMPLES.map((e) => e.command).sort()).toEqual(leaves);
    for (const e of EXAMPLES) expect(e.line.startsWith(`npx kfbench ${e.command} `), e.command).toBe(true);
  });

  it("a command's --help shows its example, what it needs first and what it writes", async () => {
    const e = EXAMPLES.find((x) => x.command === 'hero track rebuild')!;
    const r = await runCli(['hero', 'track', 'rebuild', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Example (from the repository root):\n  ${e.line}\n`);
    expect(r.stdout).toContain(`Needs first: ${e.needs}`);
    expect(r.stdout).toContain(`Writes: ${e.writes}`);
  });

  it('every command line suggested in src (hints, help, pages) is npx kfbench …, as it runs after npm ci', () => {
    const bare: string[] = [];
    for (const f of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
      if (!f.endsWith('.ts')) continue;
      for (const [i, line] of readFileSync(join(ROOT, 'src', f), 'utf8')
        .split('\n')
        .entries()) {
        if (/^\s*(\/\*\*|\*|\/\/)/.test(line)) continue; // comments name commands, they do not suggest them
        if (
          /(?<!npx )(`|<code>|run )kfbench (media|stats|embed|judge|cache|hero|compass|dev|demo|serve)\b(?!:)/.test(
            line,
          )
        )
          bare.push(`src/${f}:${i + 1}: ${line.trim()}`);
      }
    }
    expect(bare).toEqual([]);
  });

  it('the prose docs hold no command block of their own: runnable commands live in cli.md and the README, whose tests run them', () => {
    for (const f of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'cli.md')) {
      const text = readFileSync(join(ROOT, 'docs', f), 'utf8');
      for (const m of text.matchAll(/```(?:sh|console)\n([\s\S]*?)```/g))
        expect(m[1]!, `docs/${f}`).not.toMatch(/^(\$ )?(npx )?kfbench /m);
    }
  });

  const root = tempDir('kfbench-examples-run-');
  it.each(EXAMPLES.map((e) => [e.line, e] as const))('%s', async (_, e) => {
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
  });
});
