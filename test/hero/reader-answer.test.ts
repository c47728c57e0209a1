/**
 * Issue 54 item 4: the reader's answer is read the way the published prompt asks for it. The card:
 * "judge_prompt_example.md is the scoring prompt rendered verbatim on a real film". The answer
 * format (chain images beaten, rank from the best, rank from the worst, an image id) is derived
 * from the template and the reply parsed by it; a template whose answer or image slots kfbench
 * cannot map is refused before any call, naming what it found. Slots are read in four syntaxes.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { datasetPaths } from '../../src/hero/dataset/layout.js';
import { deriveAnswerFormat, splitSlots } from '../../src/hero/reader/answer.js';
import { insertIntoChain } from '../../src/judge/insertion.js';
import { Judge } from '../../src/judge/judge.js';
import { loadTemplate } from '../../src/judge/prompts.js';
import type { JudgeBackend, JudgeImage } from '../../src/judge/types.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { runCli } from '../support/cli.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

const HEAD = 'You will see 6 images. Images 1 to 5 form a chain, best first.';
const ids = ['tt01_a', 'tt01_b', 'rm123', 'tt01_c', 'tt01_d', 'tt01_e'];
const SYNTAXES: Record<string, (k: number, id: string) => string> = {
  'two-line': (k, id) => `Image ${k}:\n[image ${k}: ${id}]`,
  bracket: (k, id) => `[image ${k}: ${id}]`,
  angle: (k, id) => `<image_${k}: ${id}>`,
  label: (k, id) => `Image ${k}: ${id}.jpg`,
};

const RANK_BEST =
  'Answer with strict JSON only: {"rank": <integer 1 to {{total}}>} where rank is the place of the candidate among all {{total}} images, 1 = best.';
const RANK_WORST =
  'Answer with strict JSON only: {"rank": <integer 1 to {{total}}>}, the rank of the candidate among all {{total}} images (1 = worst).';
const IMAGE_ID =
  'Answer with strict JSON only: {"above": "<image label>"}: the label of the chain image the candidate should be placed directly above, or "none".';
/** The trap of issue 54: kfbench's field name, asking for a rank (read before as images beaten). */
const POSITION_AS_RANK =
  'Answer with strict JSON only: {"position": <integer 1 to {{total}}>} — the rank of the candidate among all images, where 1 is the best.';

describe('image slots in four syntaxes', () => {
  for (const [name, slot] of Object.entries(SYNTAXES))
    it(`${name}: the prompt and the slots in order`, () => {
      const text = `${HEAD}\n\nAnswer {"position": 0 to 5}.\n\n${ids.map((id, i) => slot(i + 1, id)).join('\n')}\n`;
      const r = splitSlots(text, 'ex.md');
      expect(r.syntax).toBe(name);
      expect(r.slots.map((s) => s.id)).toEqual(ids);
      expect(r.prompt).toBe(`${HEAD}\n\nAnswer {"position": 0 to 5}.`);
    });

  it('slots it cannot read are refused, naming the forms it knows; a slot out of order names its line', () => {
    expect(() => splitSlots(`${HEAD}\n\n(image one: tt01_a)\n`, 'ex.md')).toThrow(
      /no image slots: none of "Image 1:"/,
    );
    expect(() => splitSlots(`${HEAD}\n\n[image 1: a]\n[image 3: b]\n`, 'ex.md')).toThrow(
      /ex\.md:4: line 4 is not image slot 2 \(bracket syntax\)/,
    );
  });
});

describe('the answer format from the template', () => {
  it('kfbench\'s own wording and a bare {"position": 0 to n} are the chain images beaten', () => {
    expect(deriveAnswerFormat(loadTemplate('listwise').text, 'listwise.md')).toEqual({
      kind: 'beaten',
      field: 'position',
    });
    expect(deriveAnswerFormat('Answer {"position": <integer 0 to {{n}}>}', 't.md').kind).toBe('beaten');
  });

  it('a rank from the best, from the worst, and an image label', () => {
    expect(deriveAnswerFormat(RANK_BEST, 't')).toEqual({ kind: 'rank-best', field: 'rank' });
    expect(deriveAnswerFormat(RANK_WORST, 't')).toEqual({ kind: 'rank-worst', field: 'rank' });
    expect(deriveAnswerFormat(IMAGE_ID, 't')).toEqual({ kind: 'image-id', field: 'above' });
    expect(deriveAnswerFormat(POSITION_AS_RANK, 't')).toEqual({ kind: 'rank-best', field: 'position' });
  });

  it('what cannot be mapped is refused, naming what was found', () => {
    const refuse = (t: string) => () => deriveAnswerFormat(t, 'p.md');
    expect(refuse('Answer {"rank": 1 to {{total}}}.')).toThrow(
      /p\.md: the answer field "rank" \(a rank\): the prompt does not say whether rank 1 is the best or the worst/,
    );
    expect(refuse('Answer {"score": 0 to 10} for the candidate.')).toThrow(
      /the answer field "score" \(unknown meaning\)/,
    );
    expect(refuse('Say where it goes, in words.')).toThrow(/asks for no JSON answer/);
    expect(refuse('Say where it goes, in words.')).toThrow(BadInputError);
  });
});

/** A backend that replies `reply` and counts its calls. */
function scripted(reply: string) {
  const calls: string[] = [];
  const backend: JudgeBackend = {
    name: 'scripted',
    model: 'm',
    identity: {},
    complete: (req) => {
      calls.push(JSON.stringify(req).slice(0, 40));
      return Promise.resolve({
        text: reply,
        usage: { prompt_tokens: 0, completion_tokens: 0 },
        latency_ms: 0,
        retries: 0,
      });
    },
    close: () => Promise.resolve(),
  };
  return { judge: new Judge(backend), calls };
}

const img = (k: number): JudgeImage =>
  ({ data: Buffer.from([k]), mime: 'image/jpeg', sha256: `h${k}` }) as never;
const chain = [1, 2, 3, 4, 5].map(img);

describe('the reply is read by the format (a chain of 5: 6 images)', () => {
  const ask = async (template: string, reply: string) => {
    const { judge, calls } = scripted(reply);
    const answer = deriveAnswerFormat(template, 't');
    const out = await insertIntoChain(judge, img(9), chain, 'rules', 'listwise', {
      template: { name: 't', text: template, version: template.length.toString(16) },
      answer,
    });
    return { out, calls };
  };

  it('a rank from the best asked in the "position" field is not read as images beaten (rank 2 = 4 beaten)', async () => {
    const { out } = await ask(POSITION_AS_RANK, '{"position": 2}');
    expect(out.position).toBe(4);
    expect(out.above).toEqual([false, true, true, true, true]);
  });

  it('rank from the worst, an image label, out of range', async () => {
    expect((await ask(RANK_WORST, '{"rank": 2}')).out.position).toBe(1);
    expect((await ask(IMAGE_ID, '{"above": "Image 2"}')).out.position).toBe(4);
    expect((await ask(IMAGE_ID, '{"above": "none"}')).out.position).toBe(0);
    const far = await ask(RANK_BEST, '{"rank": 9}');
    expect(far.out.unresolved).toBe(1);
    expect(far.out.listwise?.unresolved).toMatch(/"rank": 9 is not a rank 1–6 \(rank-best answer\)/);
  });
});

let mini: MiniHeroPaths;
beforeAll(async () => {
  mini = await sharedMiniHero();
});

describe('a release example in another slot syntax and answer format', () => {
  it('hero prompt derives the rank answer from an example with [image k: id] slots; an unmappable one is refused (exit 3)', async () => {
    const root = join(tempDir(), 'heroframe');
    cpSync(mini.data, root, { recursive: true });
    const file = datasetPaths(root).judgePromptExample;
    const { prompt, slots } = splitSlots(readFileSync(file, 'utf8'), file);
    const asRank = prompt.replace(
      /Answer with strict JSON only[\s\S]*$/,
      'Answer with strict JSON only: {"rank": <integer>} where rank is the place of the candidate among all the images, 1 = best.',
    );
    const bracket = slots.map((s, i) => `[image ${i + 1}: ${s.id}]`).join('\n');
    writeFileSync(file, `${asRank}\n\n${bracket}\n`);
    const r = await runCli(['hero', 'prompt', '9001_Astronaut_Diaries', '--data', root, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).prompt.answer).toEqual({ kind: 'rank-best', field: 'rank' });
    writeFileSync(file, `${asRank.replace(', 1 = best', '')}\n\n${bracket}\n`);
    const bad = await runCli(['hero', 'prompt', '9001_Astronaut_Diaries', '--data', root]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/judge_prompt_example\.md: the answer field "rank" \(a rank\)/);
  });
});
