/**
 * What `hero inspect` looks for in each file of a dataset root: the fields kfbench reads (by
 * layout-map key or fixed names), which are required, optional or derived, and the fields inside
 * their list elements.
 */
import type { datasetPaths } from './layout.js';
import type { LayoutKey } from './layout-map.js';

/** What kfbench reads from a file: a field (by layout key or fixed names), and within its list elements, more. */
export interface Need {
  name: string;
  key?: LayoutKey;
  names?: readonly string[];
  need: 'required' | 'optional' | { derived: string };
  /** Fields inside each element of this (list) field. */
  children?: Need[];
  /** When absent, look for the children inside this sibling's elements instead (images ← order). */
  orFrom?: LayoutKey;
}

const req = (name: string, key: LayoutKey, children?: Need[]): Need => ({
  name,
  key,
  need: 'required',
  ...(children ? { children } : {}),
});
const fixed = (names: string[]): Need[] => names.map((n) => ({ name: n, names: [n], need: 'required' }));

const CHAIN_NEEDS: Need[] = [
  req('movie_id', 'movie_id'),
  req('chains', 'chains', [
    { name: 'chain_id', key: 'chain.id', need: { derived: '<movie_id>#<chain_index or position>' } },
    {
      name: 'anchor',
      key: 'chain.anchor',
      need: { derived: 'the image with source "still", else the rm prefix' },
    },
    { name: 'order', key: 'order', need: { derived: 'the images sorted by gamma' } },
    {
      name: 'images',
      key: 'images',
      need: 'required',
      orFrom: 'order',
      children: [
        req('image_id', 'image.id'),
        req('gamma', 'image.gamma'),
        req('theta_0_100', 'image.theta_0_100'),
        { name: 'source', key: 'image.source', need: { derived: 'the chain anchor, else the rm prefix' } },
        { name: 'clip_id', key: 'image.clip_id', need: { derived: 'the LSMDC clip id in the image id' } },
        { name: 't_in_clip', key: 'image.t_in_clip', need: { derived: 'the image id suffix' } },
      ],
    },
    req('pairs', 'pairs', [
      req('a', 'pair.a'),
      req('b', 'pair.b'),
      req('winner', 'pair.winner'),
      req('status', 'pair.status'),
    ]),
    { name: 'stability', key: 'chain.stability', need: 'optional' },
    { name: 'rubric_ids', key: 'chain.rubric_ids', need: 'optional' },
  ]),
];

const RUBRIC_NEEDS: Need[] = [
  req('movie_id', 'movie_id'),
  req('criteria', 'criteria', [
    req('criterion_id', 'criterion.id'),
    req('as_the_judge_read_it', 'criterion.text'),
    req('source_pair', 'criterion.source_pair'),
    req('round', 'criterion.round'),
  ]),
  { name: 'pruned_by_phase_b', key: 'rubric.pruned', need: 'optional' },
];

const BASELINE_NEEDS: Need[] = [
  req('method', 'baseline.method'),
  req('reader', 'baseline.reader'),
  req('S', 'baseline.S'),
  req('S_at_k', 'baseline.S_at_k'),
  req('top1_rate', 'baseline.top1_rate'),
  req('beat_still_rate', 'baseline.beat_still_rate'),
  req('per_film', 'baseline.per_film'),
  { name: 'selections', key: 'baseline.selections', need: 'optional' },
];

/** The files of the published layout, with what is read from each and whether it must be there. */
export const FILES: {
  rel: (p: ReturnType<typeof datasetPaths>) => string;
  needs: Need[];
  required: boolean;
}[] = [
  { rel: (p) => p.movies, needs: fixed(['movie_id', 'title', 'year']), required: true },
  {
    rel: (p) => p.clips,
    needs: [
      {
        name: 'movie_id',
        names: ['movie_id'],
        need: 'required',
      },
      {
        name: 'clips',
        names: ['clips'],
        need: 'required',
        children: fixed(['clip_id', 'start', 'end', 'duration_s']),
      },
    ],
    required: true,
  },
  { rel: (p) => p.chains, needs: CHAIN_NEEDS, required: true },
  { rel: (p) => p.rubrics, needs: RUBRIC_NEEDS, required: true },
  { rel: (p) => p.imageSha, needs: fixed(['path', 'sha256']), required: true },
  {
    rel: (p) => p.trackIndex,
    needs: fixed(['movie_id', 'frame_idx', 'clip_id', 't_in_clip']),
    required: false,
  },
  { rel: (p) => p.verifyDhash, needs: fixed(['movie_id', 'frame_idx', 'dhash']), required: false },
  { rel: (p) => p.baselines, needs: BASELINE_NEEDS, required: false },
];
