/**
 * Docs that cannot drift: docs/cli.md is what scripts/cli-docs.ts renders from the program, and
 * every leaf command has one example (src/cli/help.ts). The examples run as printed, group by group,
 * in test/cli/examples-*.test.ts (test/support/examples.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { FOLDER_OUTPUTS } from '../../src/cli/folder-files.js';
import { EXAMPLES } from '../../src/cli/help.js';
import { buildProgram } from '../../src/cli/program.js';
import { cliReference } from '../../src/cli/reference.js';
import { HERO_EVALUATION_FILES } from '../../src/report/hero-outputs.js';
import { runCli } from '../support/cli.js';
import { EXAMPLE_GROUPS, groupsOf } from '../support/examples.js';
import { ROOT } from '../support/paths.js';

function leafPaths(cmd: Command, path: string[] = []): string[] {
  if (!cmd.commands.length) return [path.join(' ')];
  return cmd.commands.flatMap((c) => leafPaths(c, [...path, c.name()]));
}

describe('docs/cli.md and the examples', () => {
  it('docs/cli.md is what scripts/cli-docs.ts writes, and every leaf command has exactly one example', async () => {
    const program = await buildProgram();
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

  it("every command that writes a folder lists the folder's files in --help and docs/cli.md, from the writers' name lists", async () => {
    const program = await buildProgram();
    const leaves = (cmd: Command, path: string[] = []): [string, Command][] =>
      cmd.commands.length
        ? cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]))
        : [[path.join(' '), cmd]];
    // a folder option: --out <dir> or --export <dir>; the demo's folder depends on --media-only (its
    // Writes line says what it holds)
    const writers = leaves(program)
      .filter(([, c]) => c.options.some((o) => /^--(out|export) <dir>/.test(o.flags)))
      .map(([p]) => p)
      .filter((p) => p !== 'demo')
      .sort();
    expect(Object.keys(FOLDER_OUTPUTS).sort()).toEqual(writers);
    // the names the writers use
    expect(FOLDER_OUTPUTS['hero evaluate']!.files.map((f) => f.name)).toEqual([
      ...HERO_EVALUATION_FILES.map((f) => f.name),
      'settings.json',
      'outputs.json',
      'judge-cache.sqlite',
    ]);
    const docs = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    for (const [command, o] of Object.entries(FOLDER_OUTPUTS)) {
      const r = await runCli([...command.split(' '), '--help']);
      expect(r.code).toBe(0);
      const section = docs.slice(docs.indexOf(`### \`kfbench ${command}\``));
      for (const f of o.files) {
        expect(r.stdout, `${command} --help`).toMatch(
          new RegExp(`^  ${f.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  `, 'm'),
        );
        expect(section.slice(0, section.indexOf('\n### ')), `docs/cli.md, ${command}`).toContain(
          `| \`${f.name}\` |`,
        );
      }
    }
    const help = (await runCli(['hero', 'evaluate', '--help'])).stdout;
    expect(help).toMatch(/^ {2}settings\.json +the inputs/m);
    expect(help).toMatch(/^ {2}outputs\.json +size, sha256/m);
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

  it('every example belongs to exactly one group of test/support/examples.ts, which the examples-*.test.ts files run', () => {
    for (const e of EXAMPLES) expect(groupsOf(e), e.command).toHaveLength(1);
    // and every group has its file, which runs it: a group without one would run no example
    for (const g of Object.keys(EXAMPLE_GROUPS)) {
      const file = join(ROOT, 'test', 'cli', `examples-${g}.test.ts`);
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file, 'utf8')).toContain(`describeExamples('${g}');`);
    }
  });
});
