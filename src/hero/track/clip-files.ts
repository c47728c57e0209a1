/** Where a film's clip files are: `<lsmdc>/<movie_id>/<clip_id>.<any video extension>`. */
import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

const VIDEO_EXTENSIONS = ['.mp4', '.avi', '.mkv', '.mov', '.webm', '.m4v', '.mpg', '.mpeg', '.ts'];

/** Every clip file of one film, by clip id (one directory listing). */
export function clipFiles(lsmdc: string, movieId: string): Map<string, string> {
  const dir = join(lsmdc, movieId);
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)) {
    const ext = extname(f).toLowerCase();
    if (VIDEO_EXTENSIONS.includes(ext)) out.set(f.slice(0, -ext.length), join(dir, f));
  }
  return out;
}
