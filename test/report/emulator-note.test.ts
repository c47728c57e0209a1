/**
 * The emulator is not a judge (issue 57 item 5): a command whose judge is the VLM emulator says so
 * on stderr before its numbers, and every report (terminal, Markdown, HTML) and viewer page that
 * shows the emulator's numbers says so too; a real judge's do not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeroSummary } from '../../src/hero/results.js';
import { EMULATOR_NOTE, isEmulatorJudge } from '../../src/judge/emulator-note.js';
import { heroHtml, heroMarkdown, heroTable } from '../../src/report/hero.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { runCli } from '../support/cli.js';
import { media, tempDir } from '../support/paths.js';

const summary = (reader: string): HeroSummary => ({
  reader,
  protocol: 'listwise',
  both_orders: false,
  disagreement_rule: null,
  questions: 1,
  questions_per_insertion: 1,
  disagreement: { checks: 0, disagreed: 0, rate: null },
  methods: [],
  official: [],
  paired: [],
  warnings: [],
});

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => emu.close());

describe('which judges are the emulator', () => {
  it('its model name in a spec or a recorded name, not a name that merely contains it', () => {
    expect(isEmulatorJudge('openai:kfbench-emulator@http://127.0.0.1:9/v1')).toBe(true);
    expect(isEmulatorJudge('openai:kfbench-emulator (the VLM emulator, in-process on 127.0.0.1)')).toBe(true);
    expect(isEmulatorJudge('openai:gpt-4.1@https://api.example/v1')).toBe(false);
    expect(isEmulatorJudge('openai:my-kfbench-emulator-2')).toBe(false);
    expect(isEmulatorJudge(undefined)).toBe(false);
  });
});

describe('the reports of the emulator', () => {
  it("HeroFrame terminal, Markdown and HTML say so; a real reader's do not", () => {
    const emuName = 'openai:kfbench-emulator';
    expect(heroTable(summary(emuName))).toContain(`note: ${EMULATOR_NOTE}`);
    expect(heroMarkdown(summary(emuName))).toMatch(
      /\*\*Note:\*\* the judge is kfbench.{0,6}s VLM emulator, not a model/,
    );
    expect(heroHtml(summary(emuName), [])).toContain('class="emulator-note"');
    for (const text of [heroTable(summary('openai:m')), heroMarkdown(summary('openai:m'))])
      expect(text).not.toContain('VLM emulator');
    expect(heroHtml(summary('openai:m'), [])).not.toContain('emulator-note');
  });
});

describe('stderr', () => {
  it('a command judged by the emulator says so with its numbers; a refusal stays one line', async () => {
    const dir = tempDir('kfbench-emu-note-');
    const spec = `openai:kfbench-emulator@${emu.url}`;
    const r = await runCli([
      ...['judge', 'pair', media('astronaut.png'), media('astronaut.png'), '--judge', spec],
      ...['--judge-cache', `${dir}/c.sqlite`],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/judge openai:kfbench-emulator/);
    expect(r.stderr.trim().split('\n')).toEqual([`note: ${spec}: ${EMULATOR_NOTE}`]);
    const refused = await runCli([
      'judge',
      'pair',
      media('astronaut.png'),
      `${dir}/none.png`,
      '--judge',
      spec,
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  });
});
