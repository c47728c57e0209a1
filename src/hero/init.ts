/**
 * `hero init`: the dataset layout for a user's own films (issue 57 item 7). Footage laid out as the
 * frame track reads it — `<footage>/<movie_id>/<clip_id>.<ext>`, one folder per film, its clips in
 * file-name order — becomes `data/movies.jsonl` (one film per folder, its title from the folder's
 * name, year and synopsis to fill in) and `data/clips.jsonl` (each clip's duration from ffprobe,
 * the clips laid end to end on the film's timeline). Nothing existing is overwritten.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { BadInputError } from '../errors.js';
import { probe } from '../media/probe.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { SafeId } from './dataset/schemas.js';

/** What `hero init` writes into its `--out` folder (`--help` lists them). */
export const HERO_INIT_FILES = [
  {
    name: 'data/movies.jsonl',
    what: 'one film per footage folder: its id, a title from the folder name, year and synopsis to fill in',
  },
  {
    name: 'data/clips.jsonl',
    what: "each film's clips in file-name order, their durations probed, laid end to end",
  },
] as const;

/** Video files a film folder's clips may be. */
const CLIP_EXTENSIONS = ['.mp4', '.mkv', '.mov', '.avi', '.webm', '.m4v'] as const;

interface HeroInitFilm {
  movie_id: string;
  clips: number;
  seconds: number;
}

export interface HeroInitResult {
  /** The dataset root written (`<out>/data/movies.jsonl`, `<out>/data/clips.jsonl`). */
  data: string;
  footage: string;
  films: HeroInitFilm[];
}

/** Seconds → `hh:mm:ss.fff`, as clips.jsonl writes times. */
function timecode(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s - 3600 * h - 60 * m;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${sec.toFixed(3).padStart(6, '0')}`;
}

/** "0001_American_Beauty" → "American Beauty". */
function titleOf(movieId: string): string {
  return (
    movieId
      .replace(/^\d+[_-]/, '')
      .replace(/[_-]+/g, ' ')
      .trim() || movieId
  );
}

function checkId(id: string, file: string): void {
  const r = SafeId.safeParse(id);
  if (!r.success) throw new BadInputError(`"${id}" cannot be an id: ${r.error.issues[0]?.message}`, { file });
}

/** The film folders of `footage` and their clip files, checked before anything is probed. */
function filmFolders(footage: string): { movie_id: string; files: string[] }[] {
  if (!existsSync(footage) || !statSync(footage).isDirectory())
    throw new BadInputError('no such footage folder (expected <footage>/<movie_id>/<clip_id>.mp4)', {
      file: footage,
    });
  const films = readdirSync(footage)
    .filter((d) => !d.startsWith('.') && statSync(join(footage, d)).isDirectory())
    .sort()
    .map((movie_id) => {
      const dir = join(footage, movie_id);
      checkId(movie_id, dir);
      const files = readdirSync(dir)
        .filter(
          (f) =>
            !f.startsWith('.') && (CLIP_EXTENSIONS as readonly string[]).includes(extname(f).toLowerCase()),
        )
        .sort();
      if (files.length === 0)
        throw new BadInputError(`no clip in this film's folder (${CLIP_EXTENSIONS.join(', ')})`, {
          file: dir,
        });
      for (const f of files) checkId(f.slice(0, -extname(f).length), join(dir, f));
      return { movie_id, files: files.map((f) => join(dir, f)) };
    });
  if (films.length === 0)
    throw new BadInputError('no film folder in it (expected <footage>/<movie_id>/<clip_id>.mp4)', {
      file: footage,
    });
  return films;
}

export async function initHeroData(o: { footage: string; out: string }): Promise<HeroInitResult> {
  const footage = resolve(o.footage);
  const data = resolve(o.out);
  const files = { movies: join(data, 'data', 'movies.jsonl'), clips: join(data, 'data', 'clips.jsonl') };
  for (const f of Object.values(files))
    if (existsSync(f))
      throw new BadInputError('already exists: hero init writes a new dataset only', { file: f });
  const films = filmFolders(footage);
  const movies: string[] = [];
  const clips: string[] = [];
  const out: HeroInitFilm[] = [];
  for (const film of films) {
    let t = 0;
    const rows = [];
    for (const file of film.files) {
      const info = await probe(file);
      const d = Math.round(info.duration_s * 1000) / 1000;
      const clip_id = file.slice(file.lastIndexOf('/') + 1, -extname(file).length);
      rows.push({ clip_id, start: timecode(t), end: timecode(t + d), duration_s: d, caption: '' });
      t = Math.round((t + d) * 1000) / 1000;
    }
    const title = titleOf(film.movie_id);
    movies.push(
      JSON.stringify({ movie_id: film.movie_id, title, year: 0, synopsis: `TODO: what ${title} is about` }),
    );
    clips.push(JSON.stringify({ movie_id: film.movie_id, clips: rows }));
    out.push({ movie_id: film.movie_id, clips: rows.length, seconds: t });
  }
  await mkdir(join(data, 'data'), { recursive: true });
  await writeFileAtomic(files.clips, `${clips.join('\n')}\n`);
  await writeFileAtomic(files.movies, `${movies.join('\n')}\n`);
  return { data, footage, films: out };
}
