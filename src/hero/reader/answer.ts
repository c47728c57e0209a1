/**
 * What a published reader prompt asks and shows (issue 44 item 4, issue 54 item 4): where its
 * images stand (the slot syntax of `eval/judge_prompt_example.md`) and how its answer says where
 * the candidate goes (judge/listwise-answer.ts). The card: "judge_prompt_example.md is the scoring
 * prompt rendered verbatim on a real film". A prompt whose answer or image slots kfbench cannot
 * map is refused before any call, naming what was found, rather than read as `{"position": n}`.
 */
import { BadInputError } from '../../errors.js';
import { BEATEN_POSITION, type ListwiseAnswerFormat } from '../../judge/listwise-answer.js';

/** One image slot of an example: the label shown before it and the image id it stands for. */
export interface ExampleSlot {
  label: string;
  id: string;
}

/**
 * The slot syntaxes kfbench reads, each a line (or two) per image, in order:
 *  - `two-line`: `Image k:` then `[image k: <image_id>]` (how kfbench's request reads as text);
 *  - `bracket`: `[image k: <image_id>]` alone;
 *  - `angle`: `<image k: <image_id>>` or `<image_k: <image_id>>`;
 *  - `label`: `Image k: <image_id>` (an id with no spaces: `<image_id>` or `<image_id>.jpg`).
 */
const ONE_LINE: { name: string; re: RegExp }[] = [
  { name: 'bracket', re: /^\[image (\d+): ([^\]\s]+)\]$/i },
  { name: 'angle', re: /^<image[ _](\d+): ([^>\s]+)>$/i },
  { name: 'label', re: /^Image (\d+): (\S+?)(?:\.jpe?g|\.png)?$/ },
];
const TWO_LINE = { label: /^Image (.+):$/, slot: /^\[image (\d+): (.*)\]$/ };

/** The example split into its prompt and its image slots, in whichever syntax it uses. */
export function splitSlots(
  text: string,
  file: string,
): { prompt: string; slots: ExampleSlot[]; syntax: string } {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const two = lines.findIndex((l, i) => l === 'Image 1:' && TWO_LINE.slot.test(lines[i + 1] ?? ''));
  if (two >= 0) return { ...twoLine(lines, two, file), syntax: 'two-line' };
  for (const { name, re } of ONE_LINE) {
    const at = lines.findIndex((l) => re.exec(l)?.[1] === '1');
    if (at < 0) continue;
    const slots: ExampleSlot[] = [];
    for (let i = at; i < lines.length; i++) {
      const m = re.exec(lines[i]!);
      if (!m || Number(m[1]) !== slots.length + 1)
        throw new BadInputError(
          `line ${i + 1} is not image slot ${slots.length + 1} (${name} syntax): the slots end the example`,
          {
            file,
            line: i + 1,
          },
        );
      slots.push({ label: m[1]!, id: m[2]! });
    }
    return { prompt: lines.slice(0, at).join('\n').trim(), slots, syntax: name };
  }
  throw new BadInputError(
    'no image slots: none of "Image 1:" then "[image 1: <image_id>]", "[image 1: <image_id>]", "<image 1: <image_id>>" or "Image 1: <image_id>" starts a line',
    { file },
  );
}

function twoLine(lines: string[], at: number, file: string): { prompt: string; slots: ExampleSlot[] } {
  const slots: ExampleSlot[] = [];
  for (let i = at; i < lines.length; i += 2) {
    const label = TWO_LINE.label.exec(lines[i]!)?.[1];
    const slot = TWO_LINE.slot.exec(lines[i + 1] ?? '');
    if (!label || !slot)
      throw new BadInputError(`line ${i + 1} is not an image slot: the slots end the example`, {
        file,
        line: i + 1,
      });
    slots.push({ label, id: slot[2]! });
  }
  return { prompt: lines.slice(0, at).join('\n').trim(), slots };
}

/** The JSON answer shape a prompt asks for: its first field, and the text describing it. */
function answerShape(template: string): { field: string; text: string } | undefined {
  const m = /\{\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*:/.exec(template);
  if (!m) return undefined;
  // the sentence(s) around the shape: from the paragraph that holds it to the end of the prompt
  const start = template.lastIndexOf('\n\n', m.index);
  return { field: m[1]!, text: template.slice(Math.max(start, 0)) };
}

const RANK_BEST = /\b1\s*(?:=|is|means|for)\s*(?:the\s+)?best\b|\bbest\s*(?:=|is)\s*1\b|\b1\s*\(best\)/i;
const RANK_WORST = /\b1\s*(?:=|is|means|for)\s*(?:the\s+)?worst\b|\bworst\s*(?:=|is)\s*1\b|\b1\s*\(worst\)/i;
const BEATEN =
  /\bnumber of (?:the )?(?:chain )?images (?:the candidate|it) (?:is )?(?:better than|beats|ranks above|is placed above)\b/i;
const IMAGE_ID =
  /\b(?:id|label|number) of the (?:chain )?image (?:the candidate|it) (?:goes|belongs|should (?:go|be placed)) (?:directly )?(?:above|before)\b/i;

/**
 * The answer format a reader prompt asks for (judge/listwise-answer.ts), from its answer
 * instruction: the JSON field its shape names and what the words around it say the value counts.
 * `kind` of none of them, or a rank that does not say whether 1 is the best or the worst, is
 * refused (BadInputError naming the field and what was found), before any call.
 */
export function deriveAnswerFormat(template: string, file: string): ListwiseAnswerFormat {
  const shape = answerShape(template);
  if (!shape)
    throw new BadInputError(
      'the prompt asks for no JSON answer ({"<field>": …}): kfbench cannot read its reply',
      {
        file,
      },
    );
  const { field, text } = shape;
  const found = (kind: string) => `the answer field "${field}" (${kind})`;
  const rank = /rank/i.test(field) || /\brank\b/i.test(text);
  const best = RANK_BEST.test(text);
  const worst = RANK_WORST.test(text);
  if (rank && best !== worst) return { kind: best ? 'rank-best' : 'rank-worst', field };
  if (rank && !BEATEN.test(text))
    throw new BadInputError(
      `${found('a rank')}: the prompt does not say whether rank 1 is the best or the worst image, so the reply cannot be mapped to the chain images beaten`,
      { file },
    );
  if (BEATEN.test(text)) return { kind: 'beaten', field };
  if (IMAGE_ID.test(text)) return { kind: 'image-id', field };
  // kfbench's own field over a range from 0 to the chain length: the chain images beaten (a rank
  // or an image label would run from 1)
  if (field === BEATEN_POSITION.field && /\b0\s*(?:to|-|–|\.\.)\s*\{\{n\}\}/.test(text))
    return { kind: 'beaten', field };
  throw new BadInputError(
    `${found('unknown meaning')}: the prompt says neither "the number of chain images the candidate is better than", a rank with "1 = best" or "1 = worst", nor "the id of the image the candidate goes above", so kfbench cannot map its reply`,
    { file },
  );
}
