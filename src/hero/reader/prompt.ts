/**
 * The reader's prompt (issue 44 item 4). The card: "judge_prompt_example.md is the scoring prompt
 * rendered verbatim on a real film" (HeroFrame-Bench, "What is in this repository", eval/). When a
 * root holds that file, the reader is asked in its words: the example is turned into a template by
 * putting placeholders where the film's own text stands (`{{title}}`, `{{year}}`, `{{synopsis}}`,
 * `{{guidelines}}` for the rubric's `- <as_the_judge_read_it>` lines, `{{n}}` / `{{total}}` for the
 * chain length and image count), and whatever of the film could not be found in it is reported.
 * `--prompt-template FILE` gives such a template directly; with neither, kfbench's own wording
 * (assets/prompts/listwise.md around `heroInstructions`). The template's hash is its version, which
 * the judge puts into every cache key, so a different prompt is a different question.
 *
 * The example's text form: the prompt, a blank line, then each image as the request sends it — its
 * label line `Image k:` and the slot `[image k: <image_id>]` (judge/body.ts sends the prompt first,
 * then each image after its label). The images identify the film (by its chains).
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { BadInputError, UsageError } from '../../errors.js';
import { listwisePrompt } from '../../judge/insertion.js';
import type { ListwiseAnswerFormat } from '../../judge/listwise-answer.js';
import { loadTemplate, type Template } from '../../judge/prompts.js';
import { sha256Hex } from '../../store/canonical.js';
import { readTextFile } from '../../store/limits.js';
import { datasetPaths, imagePath } from '../dataset/layout.js';
import type { Layout } from '../dataset/layout-map.js';
import { loadChains, loadCore, loadRubrics } from '../dataset/load.js';
import { heroInstructions } from '../prompt.js';
import { deriveAnswerFormat, splitSlots } from './answer.js';
import { checkImageOrder, type ImageOrderCheck } from './image-order.js';
import { lineDiff } from './prompt-diff.js';

type ReaderPromptSource = 'kfbench' | 'release' | 'file';

/** Which wording the reader gets, recorded in settings.json so runs are comparable. */
export interface ReaderPrompt {
  source: ReaderPromptSource;
  /** The example (release) or template (file) it came from. */
  file?: string;
  /** The template (absent for kfbench's own wording). */
  template?: string;
  /** sha256 of the template, 12 hex (kfbench's own wording: listwise.md's). */
  version: string;
  /** What of the example's film could not be placed (a derived template only). */
  not_placed: string[];
  /**
   * What the example does not show of its film, so no film's prompt will (a derived template only):
   * e.g. `synopsis` when the example's film has one the example does not quote.
   */
  absent?: string[];
  /** The film the example was rendered on (a derived template only). */
  film?: string;
  /**
   * How the template's reply says where the candidate goes (reader-answer.ts; absent: kfbench's
   * own `{"position": <chain images beaten>}`).
   */
  answer?: ListwiseAnswerFormat;
}

/** The film's text a template's placeholders stand for. */
export interface FilmText {
  movie_id: string;
  title: string;
  year: number;
  synopsis?: string | undefined;
  /** The names of its characters (movies.jsonl `characters`: strings, or objects with a `name`). */
  characters?: readonly string[] | undefined;
  guidelines: readonly string[];
}

/** The example split into its prompt and its image slots (label and image id, in order; reader-answer.ts). */
export function splitExample(
  text: string,
  file: string,
): { prompt: string; slots: { label: string; id: string }[] } {
  const { prompt, slots } = splitSlots(text, file);
  return { prompt, slots };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A template from an example rendered on `film` with a chain of `n` images (n + 1 shown). Each
 * field is replaced wherever it stands verbatim; one not found is reported in `not_placed`.
 */
export function deriveTemplate(
  prompt: string,
  film: FilmText,
  n: number,
): { template: string; not_placed: string[]; absent: string[] } {
  let t = prompt;
  const notPlaced: string[] = [];
  const absent: string[] = [];
  if (film.guidelines.length) {
    const block = film.guidelines.map((g) => `- ${g}`).join('\n');
    if (t.includes(block)) t = t.split(block).join('{{guidelines}}');
    else
      notPlaced.push(`the rubric of ${film.movie_id} (${film.guidelines.length} "- <rule>" lines in a row)`);
  }
  // a film without a rubric cannot show where one goes: fillFilm puts it after the paragraph naming
  // the title, as kfbench's own wording does
  const place = (name: string, value: string | undefined, pattern: RegExp) => {
    if (value === undefined || value === '') return;
    if (pattern.test(t)) t = t.replace(new RegExp(pattern.source, 'g'), `{{${name}}}`);
    // a synopsis the example does not quote leaves nothing of its film behind: the release's reader
    // got none, and neither will any film's (said in `absent`); any other field is not placed
    else if (name === 'synopsis') absent.push(name);
    else notPlaced.push(`${name} "${value}"`);
  };
  place('synopsis', film.synopsis, new RegExp(escapeRegExp(film.synopsis ?? '')));
  place('title', film.title, new RegExp(escapeRegExp(film.title)));
  place('year', String(film.year), new RegExp(`\\b${film.year}\\b`));
  place('total', String(n + 1), new RegExp(`\\b${n + 1}\\b`));
  place('n', String(n), new RegExp(`\\b${n}\\b`));
  // kfbench has no placeholder for the characters (the card does not say how they are rendered):
  // names of the example's film left in the template would reach every film's prompt, so say which
  const names = (film.characters ?? []).filter((c) => c !== '' && t.includes(c));
  if (names.length)
    notPlaced.push(
      `characters of ${film.movie_id} (${names.map((c) => `"${c}"`).join(', ')}): kfbench places no characters, so this text would reach every film's prompt`,
    );
  return { template: t, not_placed: notPlaced, absent };
}

/** Where a film's rubric goes in a template: its `{{guidelines}}`, else a paragraph after the title's. */
function placeGuidelines(template: string, hasRubric: boolean): string {
  let t = template;
  if (t.includes('{{guidelines}}')) {
    // an empty rubric leaves no empty line where it stood
    if (!hasRubric) t = t.replace(/^\{\{guidelines\}\}\n?/gm, '');
  } else if (hasRubric) {
    const paras = t.split('\n\n');
    const k = Math.max(
      0,
      paras.findIndex((p) => p.includes('{{title}}')),
    );
    paras.splice(k + 1, 0, 'Guidelines for this film:\n{{guidelines}}');
    t = paras.join('\n\n');
  }
  return t;
}

function filmVars(film: FilmText): Record<string, string> {
  return {
    title: film.title,
    year: String(film.year),
    synopsis: film.synopsis ?? '',
    guidelines: film.guidelines.map((g) => `- ${g}`).join('\n'),
  };
}

/**
 * The template filled with the film's text in one pass (a title holding `{{synopsis}}` stays as it
 * is); `{{n}}` and `{{total}}` are left to the judge's render.
 */
export function fillFilm(template: string, film: FilmText): string {
  const vars = filmVars(film);
  return placeGuidelines(template, vars.guidelines !== '').replace(
    /\{\{(title|year|synopsis|guidelines)\}\}/g,
    (_m, k: string) => vars[k]!,
  );
}

/**
 * The judge template a film's listwise question is rendered from (undefined: kfbench's own
 * wording): the film's text bound as values, so that the judge's render substitutes it in the
 * same single pass as `{{n}}` — data is never read again as a template.
 */
export function filmTemplate(rp: ReaderPrompt, film: FilmText): Template | undefined {
  if (rp.template === undefined) return undefined;
  const vars = filmVars(film);
  return {
    name: `hero-reader-${rp.source}`,
    text: placeGuidelines(rp.template, vars.guidelines !== ''),
    version: rp.version,
    vars,
  };
}

/** The prompt text the reader gets for a film and a chain of n images (best first). */
export function readerPromptText(rp: ReaderPrompt, film: FilmText, n: number): string {
  return listwisePrompt(
    n,
    heroInstructions(film, { criteria: film.guidelines.map((g) => ({ as_the_judge_read_it: g })) }),
    'best-first',
    filmTemplate(rp, film),
  );
}

/** The prompt and its image slots as text (the example's form). */
export function requestText(prompt: string, ids: readonly string[]): string {
  const slots = ids.map((id, i) => `Image ${i + 1}:\n[image ${i + 1}: ${id}]`);
  return `${prompt}\n\n${slots.join('\n')}\n`;
}

/** What a film's text is, from movies.jsonl and rubrics.jsonl rows. */
export function filmText(
  movie_id: string,
  movie:
    | {
        title: string;
        year: number;
        synopsis?: string | undefined;
        characters?: readonly unknown[] | undefined;
      }
    | undefined,
  rubric: { criteria: readonly { as_the_judge_read_it: string }[] } | undefined,
): FilmText {
  return {
    movie_id,
    title: movie?.title ?? movie_id,
    year: movie?.year ?? 0,
    synopsis: movie?.synopsis,
    characters: movie?.characters?.flatMap((c) =>
      typeof c === 'string'
        ? [c]
        : c && typeof c === 'object' && 'name' in c && typeof c.name === 'string'
          ? [c.name]
          : [],
    ),
    guidelines: rubric?.criteria.map((c) => c.as_the_judge_read_it) ?? [],
  };
}

/** kfbench's own wording: its version is listwise.md's (heroInstructions is code). */
const kfbenchPrompt = (): ReaderPrompt => ({
  source: 'kfbench',
  version: loadTemplate('listwise').version,
  not_placed: [],
});

/**
 * Which wording the reader gets for a root: `--prompt-template FILE` if given, else the release's
 * example (derived), else kfbench's own. `films`: the root's films (text and chains' image ids).
 */
export function resolveReaderPrompt(
  data: string,
  films: () => { text: FilmText; images: ReadonlySet<string> }[],
  promptTemplate?: string,
): ReaderPrompt {
  if (promptTemplate !== undefined) {
    if (!existsSync(promptTemplate))
      throw new BadInputError('no such prompt template', { file: promptTemplate });
    const template = readTextFile(promptTemplate).trim();
    return {
      source: 'file',
      file: promptTemplate,
      template,
      version: sha256Hex(template).slice(0, 12),
      not_placed: [],
      answer: deriveAnswerFormat(template, promptTemplate),
    };
  }
  const file = datasetPaths(data).judgePromptExample;
  if (!existsSync(file)) return kfbenchPrompt();
  const ex = exampleFilm(file, films());
  const { template, not_placed, absent } = deriveTemplate(ex.prompt, ex.film, ex.slots.length - 1);
  return {
    source: 'release',
    file,
    template,
    version: sha256Hex(template).slice(0, 12),
    not_placed,
    ...(absent.length ? { absent } : {}),
    film: ex.film.movie_id,
    answer: deriveAnswerFormat(template, file),
  };
}

/** The example's prompt, slots and film (the film whose chains hold its first image). */
function exampleFilm(file: string, films: { text: FilmText; images: ReadonlySet<string> }[]) {
  const { prompt, slots } = splitExample(readTextFile(file), file);
  // by its chains, else by the image files (a rebuilt root's chains may no longer hold the example's images)
  const root = dirname(dirname(file));
  const id = slots[0]!.id;
  const f =
    films.find((x) => x.images.has(id)) ??
    films.find((x) => existsSync(imagePath(root, x.text.movie_id, id)));
  if (!f)
    throw new BadInputError(
      `image ${slots[0]!.id} is in no film's chains or images folder: which film it shows is unknown`,
      {
        file,
      },
    );
  if (slots.length < 2)
    throw new BadInputError('one image slot: a chain and a candidate are at least two', { file });
  return { prompt, slots, film: f.text };
}

/** `hero prompt`: the text the reader gets for a film's chain (`film`), or the example checked (`check`). */
export async function showReaderPrompt(o: {
  data: string;
  layout?: Layout | undefined;
  film?: string | undefined;
  chain?: number | undefined;
  promptTemplate?: string | undefined;
  check?: boolean | undefined;
}): Promise<{
  prompt: ReaderPrompt;
  text: string;
  check?: { file: string; film: string; equal: boolean; diff: string; order: ImageOrderCheck };
}> {
  const ds = await loadCore(o.data, o.layout);
  const rubrics = await loadRubrics(o.data, o.layout);
  const chains = await loadChains(o.data, o.layout);
  const film = (id: string) => filmText(id, ds.movies.get(id), rubrics.get(id));
  const films = () =>
    [...chains].map(([id, f]) => ({ text: film(id), images: new Set(f.chains.flatMap((c) => c.order)) }));
  const prompt = resolveReaderPrompt(o.data, films, o.promptTemplate);
  if (o.check) {
    const file = datasetPaths(o.data).judgePromptExample;
    if (!existsSync(file))
      throw new BadInputError('no example to check against (eval/judge_prompt_example.md)', { file });
    const ex = exampleFilm(file, films());
    const text = requestText(
      readerPromptText(prompt, ex.film, ex.slots.length - 1),
      ex.slots.map((s) => s.id),
    );
    const diff = lineDiff(readTextFile(file), text, [file, `rendered (${prompt.source} prompt)`]);
    const order = checkImageOrder(
      ex.slots.map((s) => s.id),
      chains.get(ex.film.movie_id),
    );
    return {
      prompt,
      text,
      check: { file, film: ex.film.movie_id, equal: diff === '' && order.equal, diff, order },
    };
  }
  if (!o.film) throw new UsageError('name a film (kfbench hero prompt FILM), or --check');
  const f = chains.get(o.film);
  if (!f) throw new BadInputError(`film ${o.film} has no chains`, { file: datasetPaths(o.data).chains });
  const k = o.chain ?? 0;
  const c = f.chains[k];
  if (!c)
    throw new UsageError(`--chain ${k}: ${o.film} has ${f.chains.length} chains (0–${f.chains.length - 1})`);
  const text = requestText(readerPromptText(prompt, film(o.film), c.order.length), [...c.order, 'candidate']);
  return { prompt, text };
}
