/** Where each file of a HeroFrame dataset root lives (the published layout). */
import { join } from 'node:path';

export function datasetPaths(root: string) {
  return {
    root,
    chains: join(root, 'data', 'chains.jsonl'),
    rubrics: join(root, 'data', 'rubrics.jsonl'),
    movies: join(root, 'data', 'movies.jsonl'),
    clips: join(root, 'data', 'clips.jsonl'),
    images: join(root, 'images'),
    imageSha: join(root, 'images', 'image_sha256.jsonl'),
    trackIndex: join(root, 'frame_track', 'track_index.jsonl.zst'),
    verifyDhash: join(root, 'frame_track', 'verify_dhash.jsonl.zst'),
    query: join(root, 'eval', 'query.txt'),
    judgePromptExample: join(root, 'eval', 'judge_prompt_example.md'),
    baselines: join(root, 'eval', 'baselines.jsonl'),
    corpusStats: join(root, 'stats', 'corpus_stats.json'),
    /** Written by `hero build` (not part of the published layout): what the build did. */
    buildReport: join(root, 'stats', 'build_report.json'),
    /** Written by `hero build --learn-rubric`: every proposal and the gate that rejected it. */
    rubricProposals: join(root, 'stats', 'rubric_proposals.jsonl'),
  };
}
export type DatasetPaths = ReturnType<typeof datasetPaths>;

export function imagePath(root: string, movieId: string, imageId: string): string {
  return join(root, 'images', movieId, `${imageId}.jpg`);
}

/** A rebuilt track's frame file: <track>/<movie_id>/<frame_idx>.jpg */
export function trackFramePath(track: string, movieId: string, frameIdx: number): string {
  return join(track, movieId, `${frameIdx}.jpg`);
}
