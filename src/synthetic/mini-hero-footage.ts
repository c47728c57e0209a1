/**
 * The mini HeroFrame set's footage and stills, made by ffmpeg from shipped photographs: clips of
 * eight kinds (pans, dark, blurred, cluttered, procedural, with a cut), and stills cropped, tinted
 * and sharpened from the same photographs. Every clip reads one input file (the photograph, or a
 * lavfi source): a second source is a filter inside the graph, never a second `-i`. ffmpeg 5 reads
 * each input file in a thread of its own, and with two (the photograph and a lavfi source) the
 * clutter and cut clips came out different from one build to another (one clutter clip of film
 * 9004: three outputs from two demo runs and a lone build; another: one of seven builds run three
 * at a time; from 4 pixels of one frame to over a thousand in a frame), which moved the demo's
 * local-reader random row between 0.361 and 0.363 on one commit;
 * with one input, 9 of 9 builds were byte-identical (test/synthetic/mini-hero-footage.test.ts).
 */
import { rename } from 'node:fs/promises';
import { ffmpegRun } from '../media/ffmpeg.js';
import { luma601 } from '../media/raw.js';
import type { Rng } from '../stats/rng.js';
import { photoPath } from './assets.js';

export interface FilmSpec {
  movie_id: string;
  title: string;
  year: number;
  /**
   * The film's TMDB genres, written into movies.jsonl's TMDB record with a runtime (issue 54 item 6:
   * `hero analyze corpus` and `position` read them); absent: the film's line has no TMDB record.
   */
  genres?: string[];
  photo: string;
  hue: number;
  fps: string;
  seconds: number;
}

// moving sources only: a static stretch would let a shifted frame match by coincidence
const PROCEDURAL = ['testsrc2', 'mandelbrot', 'life', 'cellauto'];
export const KINDS = ['pan', 'pan', 'pan', 'dark', 'blur', 'clutter', 'procedural', 'cut'] as const;
export type Kind = (typeof KINDS)[number];

export function rational(fps: string): number {
  const [a, b] = fps.split('/').map(Number);
  return a! / (b ?? 1);
}

/** ffmpeg filter graph for one clip of `frames` frames. */
export function clipGraph(
  kind: Kind,
  rng: Rng,
  film: FilmSpec,
  frames: number,
): { inputs: string[]; graph: string } {
  const fps = film.fps;
  const d = (frames / rational(fps)).toFixed(4);
  const hue = film.hue ? `,hue=h=${film.hue}` : '';
  const norm = `fps=${fps},format=yuv420p,setsar=1`;
  const photoIn = ['-loop', '1', '-framerate', fps, '-t', d, '-i', photoPath(film.photo)];
  const dir = rng.next() < 0.5 ? 1 : -1;
  const x0 = Math.round(rng.next() * 300);
  const y0 = Math.round(rng.next() * 200);
  const vx = Math.round((120 + rng.next() * 100) * dir);
  const vy = Math.round((rng.next() * 2 - 1) * 60);
  const pan = `scale=960:640,crop=320:180:x='clip(${x0}+${vx}*t,0,640)':y='clip(${y0}+${vy}*t,0,460)'`;
  const proc = PROCEDURAL[rng.int(PROCEDURAL.length)]!;
  // life and cellauto start from a random grid unless given a seed: one from the draws above,
  // so that the same film is the same footage on every build
  const seed = x0 * 1000 + y0;
  const procSpec =
    proc === 'life'
      ? `life=s=320x180:mold=10:ratio=0.2:seed=${seed}:death_color=#202020:life_color=#e0c040`
      : proc === 'cellauto'
        ? `cellauto=s=320x180:random_seed=${seed}`
        : `${proc}=s=320x180`;
  switch (kind) {
    case 'pan':
      return { inputs: photoIn, graph: `[0:v]${pan}${hue},${norm}[out]` };
    case 'dark':
      return { inputs: photoIn, graph: `[0:v]${pan}${hue},eq=brightness=-0.35:contrast=0.7,${norm}[out]` };
    case 'blur':
      return { inputs: photoIn, graph: `[0:v]${pan}${hue},gblur=sigma=5,${norm}[out]` };
    case 'clutter':
      return {
        inputs: photoIn,
        graph: `testsrc2=s=320x180:r=${fps},trim=duration=${d}[src];[0:v]${pan}${hue},${norm}[p];[src]${norm}[t];[p][t]blend=all_expr='A*0.55+B*0.45',${norm}[out]`,
      };
    case 'procedural':
      return {
        inputs: ['-f', 'lavfi', '-t', d, '-i', `${procSpec}:r=${fps}`],
        graph: `[0:v]scale=320:180${hue},${norm}[out]`,
      };
    case 'cut': {
      // a hard cut inside the clip: the photo pan, then a procedural source
      const half = (frames / 2 / rational(fps)).toFixed(4);
      return {
        inputs: photoIn,
        graph: `${procSpec}:r=${fps},trim=duration=${d}[src];[0:v]${pan}${hue},${norm},trim=duration=${half},setpts=PTS-STARTPTS[a];[src]scale=320:180,${norm},trim=duration=${half},setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1:a=0,${norm}[out]`,
      };
    }
  }
}

export async function makeClip(
  path: string,
  kind: Kind,
  rng: Rng,
  film: FilmSpec,
  frames: number,
): Promise<void> {
  const { inputs, graph } = clipGraph(kind, rng, film, frames);
  const tmp = `${path}.partial.mp4`;
  await ffmpegRun(
    [
      '-y',
      ...inputs,
      '-filter_complex',
      graph,
      '-map',
      '[out]',
      '-frames:v',
      String(frames),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-g',
      '24',
      '-threads',
      '1',
      '-fflags',
      '+bitexact',
      '-flags:v',
      '+bitexact',
      '-map_metadata',
      '-1',
      tmp,
    ],
    path,
  );
  await rename(tmp, path);
}

export async function makeStill(path: string, film: FilmSpec, rng: Rng): Promise<void> {
  const cx = Math.round(200 + rng.next() * 200);
  const cy = Math.round(120 + rng.next() * 160);
  const hue = film.hue ? `,hue=h=${film.hue}` : '';
  const tmp = `${path}.partial.jpg`;
  await ffmpegRun(
    [
      '-y',
      '-i',
      photoPath(film.photo),
      '-vf',
      `scale=960:640,crop=480:270:x=${cx}:y=${cy}${hue},eq=saturation=1.35:contrast=1.08,unsharp=5:5:0.8`,
      '-frames:v',
      '1',
      '-q:v',
      '2',
      tmp,
    ],
    path,
  );
  await rename(tmp, path);
}

export function contrast(img: Parameters<typeof luma601>[0]): number {
  const l = luma601(img).data;
  let s = 0;
  let q = 0;
  for (const v of l) {
    s += v;
    q += v * v;
  }
  return Math.sqrt(q / l.length - (s / l.length) ** 2);
}
