/**
 * The files each folder-writing command writes, from the writers' own name lists: shown under the
 * command's `--help` and in docs/cli.md, and checked against the folders the examples really
 * write (test/support/examples.ts), so that the list cannot drift from what is written.
 */

import { RESPONSE_FILES } from '../compass/response/outputs.js';
import { EVALUATION_FILES } from '../compass/run/outputs.js';
import { HERO_INIT_FILES } from '../hero/init.js';
import { TRACK_FILES } from '../hero/track/rebuild.js';
import { SAMPLE_FILE } from '../media/sample.js';
import { HERO_FOLDER_FILES } from '../report/hero-outputs.js';
import { SENSITIVITY_FILE } from '../runs/compass-score.js';
import type { FolderFile } from '../store/out-folder.js';
import { RECORD_FILES } from '../store/shards.js';

export interface FolderOutput {
  /** The option that names the folder. */
  option: string;
  /**
   * `whole`: the folder is written whole (staged and moved into place) and holds these files and
   * nothing else of this run; `adds`: these files are added to a folder that may hold others.
   */
  kind: 'whole' | 'adds';
  files: readonly FolderFile[];
}

const judgeCache = (when: string): FolderFile => ({
  name: 'judge-cache.sqlite',
  what: "the judge's answers, errors never cached: a second run resumes from it",
  when,
});

const onlyEvaluate = (f: FolderFile): FolderFile => ({ ...f, when: 'merging compass evaluate folders' });

/** By command path ("hero evaluate"). */
export const FOLDER_OUTPUTS: Readonly<Record<string, FolderOutput>> = {
  'hero evaluate': {
    option: '--out',
    kind: 'whole',
    files: [...HERO_FOLDER_FILES, judgeCache('without --cache; kept, not replaced')],
  },
  'merge hero': { option: '--out', kind: 'whole', files: HERO_FOLDER_FILES },
  'compass score': {
    option: '--out',
    kind: 'whole',
    files: [
      ...Object.values(RESPONSE_FILES),
      ...RECORD_FILES,
      judgeCache('with --segmenter judge and without --judge-cache'),
      {
        name: 'scan-cache.sqlite',
        what: 'the scans, reused by a later run',
        when: 'with --shard and without --scan-cache (else .cache/kfbench/ beside the folder)',
      },
    ],
  },
  'compass evaluate': {
    option: '--out',
    kind: 'whole',
    files: [
      ...Object.values(EVALUATION_FILES),
      ...RECORD_FILES,
      judgeCache('without --cache; kept, not replaced'),
      {
        name: 'scan-cache.sqlite',
        what: 'the scans, reused by a later run',
        when: 'with --shard and without --scan-cache (else .cache/kfbench/ beside the folder)',
      },
    ],
  },
  'merge compass': {
    option: '--out',
    kind: 'whole',
    files: [
      ...Object.values(RESPONSE_FILES),
      ...Object.values(EVALUATION_FILES)
        .filter((f) => !Object.values(RESPONSE_FILES).some((r) => r.name === f.name))
        .map(onlyEvaluate),
      ...RECORD_FILES,
    ],
  },
  'compass sensitivity': { option: '--out', kind: 'adds', files: [SENSITIVITY_FILE] },
  'media sample': { option: '--out', kind: 'whole', files: [SAMPLE_FILE] },
  'hero track rebuild': { option: '--out', kind: 'adds', files: TRACK_FILES },
  'hero init': { option: '--out', kind: 'adds', files: HERO_INIT_FILES },
  // the mini sets (src/synthetic/): made once, left as they are when there
  'hero mini': {
    option: '--out',
    kind: 'adds',
    files: [
      {
        name: 'heroframe/',
        what: 'a HeroFrame dataset root in the published layout (data/, eval/, images/, stats/ …)',
      },
      { name: 'lsmdc/', what: "the films' footage: <movie_id>/<clip_id>.mp4" },
      { name: 'stills/', what: 'the publicity stills: <movie_id>/<image_id>.jpg' },
      { name: 'track/', what: 'the rebuilt 1 fps track: <movie_id>/<frame_idx>.jpg' },
    ],
  },
  'compass mini': {
    option: '--out',
    kind: 'adds',
    files: [
      { name: 'cases.jsonl', what: 'the cases' },
      { name: 'keyframes/', what: '<case_id>/<kf_id>.png' },
      { name: 'videos/', what: "the seven models' videos: <model>/<case_id>__<prompt_mode>.mp4" },
      { name: 'pairs.jsonl', what: 'labelled keyframe/frame pairs for calibrating an embedder' },
      { name: 'pairs/', what: 'the images of pairs.jsonl' },
    ],
  },
  // the viewer's export (src/web/export.ts, src/web/site.ts)
  serve: {
    option: '--export',
    kind: 'whole',
    files: [
      { name: 'index.html', what: 'the home page: the HeroFrame board and the Compass board' },
      { name: 'film-<movie_id>.html', what: "a film's page", when: 'with --results' },
      {
        name: 'case-<case_id>.html',
        what: "a case's page",
        when: 'with --compass-results',
      },
      { name: 'case-<case_id>~<mode>~<model>.html', what: "a video's page", when: 'with --compass-results' },
      { name: 'assets/', what: "the viewer's CSS and script" },
      { name: 'files/', what: 'the dataset, track and case images the pages show' },
      {
        name: 'derived/',
        what: 'frames and video proxies made for the pages',
        when: 'when a page shows one',
      },
    ],
  },
};

/** The lines under a command's `--help` (and in docs/cli.md) that list its folder's files. */
export function folderFilesLines(o: FolderOutput): string[] {
  const width = Math.max(...o.files.map((f) => f.name.length));
  return [
    o.kind === 'whole'
      ? `Files in the ${o.option} folder (written whole: staged beside it, moved into place when all are written):`
      : `Files it adds to the ${o.option} folder:`,
    ...o.files.map((f) => `  ${f.name.padEnd(width)}  ${f.what}${f.when ? ` (${f.when})` : ''}`),
  ];
}

/** The same list as a Markdown table, for docs/cli.md. */
export function folderFilesTable(o: FolderOutput): string[] {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  return [
    o.kind === 'whole'
      ? `Files in the \`${o.option}\` folder (written whole: staged beside it, moved into place when all are written):`
      : `Files it adds to the \`${o.option}\` folder:`,
    '',
    '| file | holds | written |',
    '|---|---|---|',
    ...o.files.map((f) => `| \`${f.name}\` | ${cell(f.what)} | ${cell(f.when ?? 'always')} |`),
  ];
}

/** Whether a path inside the folder (`a/b.json`, `/`-separated) is one `f` names. */
export function namesFile(f: FolderFile, path: string): boolean {
  const esc = f.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[^>]+>/g, '[^/]+');
  return new RegExp(`^${esc.endsWith('/') ? `${esc}.+` : esc}$`).test(path);
}
