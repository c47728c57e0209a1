/**
 * HeroFrame's wording for the judge: what a reader is asked about a film's images. The judge
 * layer receives it as plain text; the rubric lines are the criteria's `as_the_judge_read_it`.
 */
import type { FilmRubric, Movie } from './dataset/schemas.js';

export function heroInstructions(
  movie: Pick<Movie, 'title' | 'year'>,
  rubric?: { criteria: readonly Pick<FilmRubric['criteria'][number], 'as_the_judge_read_it'>[] },
): string {
  let text = `These are stills from the film "${movie.title}" (${movie.year}). Choose the image that works better as the film's cover: the single still a viewer would see first, as its thumbnail or poster.`;
  const lines = rubric?.criteria.map((c) => c.as_the_judge_read_it) ?? [];
  if (lines.length) text += `\n\nGuidelines for this film:\n${lines.map((l) => `- ${l}`).join('\n')}`;
  return text;
}
