/**
 * Issue 44 item 4: the reader gets the release's prompt. The card: "judge_prompt_example.md is the
 * scoring prompt rendered verbatim on a real film" — derived into a template (reader-prompt.ts),
 * used by default, printed by `hero prompt`, checked byte for byte by `hero prompt --check`.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { datasetPaths } from '../../src/hero/dataset/layout.js';
import { deriveTemplate, fillFilm, filmText, splitExample } from '../../src/hero/reader/prompt.js';
import { checkReaderListwise } from '../../src/hero/reader/reader.js';
import { ImageEncoder } from '../../src/judge/images.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { emulatorJudge } from '../support/emulator.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
let example: string;
beforeAll(async () => {
  mini = await sharedMiniHero();
  example = readFileSync(datasetPaths(mini.data).judgePromptExample, 'utf8');
});

/** A copy of the mini root (the test changes its example). */
function copyRoot(): string {
  const out = join(tempDir(), 'heroframe');
  cpSync(mini.data, out, { recursive: true });
  return out;
}

describe('the reader prompt from eval/judge_prompt_example.md', () => {
  it('the mini set ships an example; re-rendering its own film reproduces it byte for byte', async () => {
    const { prompt, slots } = splitExample(example, 'example');
    expect(slots).toHaveLength(7);
    expect(prompt).toContain('"Astronaut Diaries" (1998)');
    const r = await runCli(['hero', 'prompt', '--data', mini.data, '--check']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('byte for byte the example');
    expect(r.stderr).not.toContain('not placed');
    // the mini example, like kfbench's own wording, quotes no synopsis: said, not a warning
    expect(r.stdout).toMatch(/^absent from the example: synopsis/m);
    expect(r.stdout).toContain("image order: the example's 7 images are in the order kfbench sends them");
  });

  it('--check also checks the order the images are sent in: a chain worst first, a candidate first', async () => {
    const { slots } = splitExample(example, 'example');
    const ids = slots.map((x) => x.id);
    const chain = ids.slice(0, -1);
    const candidate = ids.at(-1)!;
    const withOrder = (order: string[]) =>
      example.replace(
        /\n\nImage 1:[\s\S]*$/,
        `\n\n${order.map((id, i) => `Image ${i + 1}:\n[image ${i + 1}: ${id}]`).join('\n')}\n`,
      );
    expect(withOrder(ids)).toBe(example);
    const root = copyRoot();
    const file = datasetPaths(root).judgePromptExample;
    for (const [order, reason] of [
      [[...[...chain].reverse(), candidate], 'worst first'],
      [[candidate, ...chain], 'the candidate before the chain'],
      [[chain[1]!, chain[0]!, ...chain.slice(2), candidate], 'not in the chain’s order'.replace('’', "'")],
    ] as const) {
      writeFileSync(file, withOrder([...order]));
      const r = await runCli(['hero', 'prompt', '--data', root, '--check']);
      // the text re-renders byte for byte (the slots carry the example's own ids); the order does not
      expect(r.stdout, reason).toContain('byte for byte the example');
      expect(r.code, reason).toBe(3);
      expect(r.stdout).toContain(`image order differs: `);
      expect(r.stdout).toContain(reason);
      expect(r.stdout).toContain(`  kfbench: ${ids.join(' ')}`);
      expect(r.stderr).toMatch(
        /judge_prompt_example\.md: the example sends its images in another order than kfbench/,
      );
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('derive puts placeholders where the film text stands and fills them back', () => {
    const film = {
      movie_id: 'x',
      title: 'Night Train',
      year: 1951,
      synopsis: 'A porter keeps a secret.',
      guidelines: ['Prefer faces.', 'Prefer motion.'],
    };
    const prompt = `You will see 7 images; 1 to 6 are a chain.\n\n"Night Train" (1951). A porter keeps a secret.\n\nRules:\n- Prefer faces.\n- Prefer motion.\n\nAnswer {"position": 0 to 6}.`;
    const d = deriveTemplate(prompt, film, 6);
    expect(d.not_placed).toEqual([]);
    expect(d.template).toBe(
      'You will see {{total}} images; 1 to {{n}} are a chain.\n\n"{{title}}" ({{year}}). {{synopsis}}\n\nRules:\n{{guidelines}}\n\nAnswer {"position": 0 to {{n}}}.',
    );
    expect(fillFilm(d.template, film).replaceAll('{{total}}', '7').replaceAll('{{n}}', '6')).toBe(prompt);
    // a title that is not in the example is reported, not silently dropped
    const missing = deriveTemplate(prompt.replace('Night Train', 'Some Film'), film, 6);
    expect(missing.not_placed).toEqual(['title "Night Train"']);
  });

  it("a synopsis the example does not show, and the example film's character names left in it, are reported", () => {
    const film = {
      movie_id: 'x',
      title: 'Night Train',
      year: 1951,
      synopsis: 'A porter keeps a secret from everyone on the night train to the coast, until the last stop.',
      characters: ['Mabel', 'Otto', 'Nobody Here'],
      guidelines: [],
    };
    const prompt = `"Night Train" (1951), 7 images. Mabel, the porter, and Otto, the conductor.\n\nAnswer {"position": 0 to 6}.`;
    const d = deriveTemplate(prompt, film, 6);
    expect(d.absent).toEqual(['synopsis']);
    expect(d.not_placed).toEqual([
      'characters of x ("Mabel", "Otto"): kfbench places no characters, so this text would reach every film\'s prompt',
    ]);
    // movies.jsonl's characters as strings or as objects with a name
    expect(
      filmText(
        'x',
        { title: 'T', year: 1, characters: ['A', { name: 'B', role: 'r' }, { role: 'no name' }, 3] },
        undefined,
      ).characters,
    ).toEqual(['A', 'B']);
  });

  it('a title the example does not show is reported as not placed by hero prompt', async () => {
    const root = copyRoot();
    const file = datasetPaths(root).judgePromptExample;
    writeFileSync(file, example.replace('"Astronaut Diaries"', '"The Film"'));
    const r = await runCli(['hero', 'prompt', '9001_Astronaut_Diaries', '--data', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('not placed: title "Astronaut Diaries"');
    rmSync(root, { recursive: true, force: true });
  });

  it('a hand-edited example: its extra sentence is in the prompt the reader gets; hero prompt prints it; the other film gets its own title', async () => {
    const root = copyRoot();
    const file = datasetPaths(root).judgePromptExample;
    const extra = 'Ignore the subtitles burned into the frame.';
    writeFileSync(
      file,
      example.replace('Judge only what is visible.', `Judge only what is visible. ${extra}`),
    );
    const shown = await runCli(['hero', 'prompt', '9004_Launch_Window', '--data', root]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/^release prompt [0-9a-f]{12}/);
    expect(shown.stdout).toContain(extra);
    expect(shown.stdout).toContain('"Launch Window" (2009)');
    expect(shown.stdout).not.toContain('Astronaut');
    expect(shown.stdout).toMatch(/Image 7:\n\[image 7: candidate\]\n$/);
    // still byte for byte: the derived template re-renders the edited example
    expect((await runCli(['hero', 'prompt', '--data', root, '--check'])).code).toBe(0);
    // what the reader is asked: the emulator logs each request's text and still recognises it
    const j = await emulatorJudge();
    try {
      const r = await checkReaderListwise({
        data: root,
        judge: j.judge,
        encoder: new ImageEncoder(),
        sample: 2,
      });
      expect(r.prompt.source).toBe('release');
      expect(j.emu.log.length).toBe(2);
      for (const q of j.emu.log) {
        expect(q.text).toContain(extra);
        expect(q.kind).toBe('listwise');
      }
    } finally {
      await j.close();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('--prompt-template overrides; --check prints the diff and exits 3; the cache key differs between templates', async () => {
    const root = copyRoot();
    const tpl = join(tempDir(), 'mine.md');
    writeFileSync(
      tpl,
      'Chain of {{n}} images, best first, then a candidate ({{total}} in all), from "{{title}}".\n\nAnswer with strict JSON only: {"position": <integer 0 to {{n}}>}\n',
    );
    const shown = await runCli([
      'hero',
      'prompt',
      '9001_Astronaut_Diaries',
      '--data',
      root,
      '--prompt-template',
      tpl,
    ]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(
      shown.stdout.startsWith(
        'Chain of 6 images, best first, then a candidate (7 in all), from "Astronaut Diaries".',
      ),
    ).toBe(true);
    const check = await runCli(['hero', 'prompt', '--data', root, '--check', '--prompt-template', tpl]);
    expect(check.code).toBe(3);
    expect(check.stdout).toContain('+Chain of 6 images');
    expect(check.stdout).toMatch(/^-You will see 7 images/m);
    // one cache: the release's prompt, again (all cached), then the file's (asked anew)
    const cache = join(tempDir(), 'cache.sqlite');
    const j = await emulatorJudge({}, {}, cache);
    try {
      const run = (promptTemplate?: string) =>
        checkReaderListwise({
          data: root,
          judge: j.judge,
          encoder: new ImageEncoder(),
          sample: 2,
          promptTemplate,
        });
      await run();
      expect(j.emu.log.length).toBe(2);
      await run();
      expect(j.emu.log.length).toBe(2);
      const r = await run(tpl);
      expect(r.prompt.source).toBe('file');
      expect(j.emu.log.length).toBe(4);
      expect(j.emu.log[3]!.text).toContain('from "');
    } finally {
      await j.close();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('without the example the reader gets kfbench wording, as before', async () => {
    const root = copyRoot();
    rmSync(datasetPaths(root).judgePromptExample);
    const shown = await runCli(['hero', 'prompt', '9001_Astronaut_Diaries', '--data', root]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/^kfbench prompt [0-9a-f]{12}\n/);
    expect(`${shown.stdout}`).toBe(example.replace(/\[image 7: [^\]]+\]/, '[image 7: candidate]'));
    rmSync(root, { recursive: true, force: true });
  });

  it('hero evaluate asks in the release wording by default and --prompt-template on demand, and settings.json says which', async () => {
    const dir = tempDir();
    const sel = join(dir, 'uniform.jsonl');
    const select = await runCli([
      'hero',
      'select',
      '--method',
      'uniform',
      '--data',
      mini.data,
      '--track',
      mini.track,
      '--out',
      sel,
      '--k',
      '1',
    ]);
    expect(select.code, select.stderr).toBe(0);
    const tpl = join(dir, 'mine.md');
    writeFileSync(
      tpl,
      'Own words for "{{title}}": {{n}} ranked, {{total}} shown.\nAnswer with strict JSON only: {"position": <integer 0 to {{n}}>}\n',
    );
    const j = await emulatorJudge();
    try {
      const run = async (out: string, extra: string[]) => {
        const r = await runCli([
          'hero',
          'evaluate',
          '--selections',
          sel,
          '--data',
          mini.data,
          '--track',
          mini.track,
          '--judge',
          `openai:kfbench-emulator@${j.emu.url}`,
          '--out',
          out,
          '--bootstrap',
          '200',
          ...extra,
        ]);
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(readFileSync(join(out, 'settings.json'), 'utf8')).settings.reader_prompt;
      };
      const release = await run(join(dir, 'a'), []);
      expect(release).toMatchObject({ source: 'release', file: datasetPaths(mini.data).judgePromptExample });
      const asked = j.emu.log.length;
      expect(asked).toBeGreaterThan(0);
      expect(
        j.emu.log.every((q) => q.kind === 'listwise' && q.text?.startsWith('You will see 7 images')),
      ).toBe(true);
      const own = await run(join(dir, 'b'), ['--prompt-template', tpl]);
      expect(own).toMatchObject({ source: 'file', file: tpl });
      expect(own.version).not.toBe(release.version);
      const mine = j.emu.log.slice(asked);
      expect(mine.length).toBe(asked);
      expect(
        mine.every(
          (q) => q.kind === 'listwise' && /^Own words for "[^"]+": 6 ranked, 7 shown\./.test(q.text ?? ''),
        ),
      ).toBe(true);
    } finally {
      await j.close();
    }
  });
});
