/** A film's publicity stills as a stills folder holds them (`<stills>/<movie_id>/<image_id>.jpg`). */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BadInputError } from '../errors.js';

/**
 * A film's publicity stills in a stills folder (`<stills>/<movie_id>/<image_id>.jpg`): image id →
 * file name. Each still is read back from the file it was listed as (.jpg, .jpeg, any case); two
 * files with one id are bad input. A film without a folder has none.
 */
export function listStills(stills: string, movie: string): Map<string, string> {
  const stillDir = join(stills, movie);
  const stillFiles = new Map<string, string>();
  if (existsSync(stillDir))
    for (const name of readdirSync(stillDir).sort())
      if (/\.jpe?g$/i.test(name)) {
        const id = name.replace(/\.jpe?g$/i, '');
        if (stillFiles.has(id))
          throw new BadInputError(
            `two stills of ${movie} share the id ${id} (${stillFiles.get(id)}, ${name})`,
            {
              file: join(stillDir, name),
            },
          );
        stillFiles.set(id, name);
      }
  return stillFiles;
}
