/**
 * `hero fit-reader` and `hero check-reader` as one call each: the reader fitted and its file
 * written; a reader's agreement with the chains under a protocol, its judge opened from its
 * settings and closed whatever happens.
 */
import type { OnnxOptions } from '../embed/onnx-options.js';
import type { Layout } from '../hero/dataset/layout-map.js';
import {
  checkReader,
  checkReaderListwise,
  type FitReport,
  fitHeroReader,
  type ListwiseReaderCheck,
  type ReaderCheck,
  type ReaderCheckOptions,
} from '../hero/reader/reader.js';
import { writeReaderFile } from '../judge/local.js';
import type { JudgeSettings } from '../judge/settings.js';
import { withTools } from './tools.js';

/** What `hero fit-reader` reports: where the reader went, and its fit. */
export interface FitReaderRun {
  out: string;
  films: number;
  pairs: number;
  cv_agreement: number;
  folds: FitReport['folds'];
}

/** Fit the local reader on `data`'s confident pairs and write it to `out` (reader.json). */
export async function fitReaderRun(o: {
  data: string;
  /** The layout map the dataset's files are read through (default: the built-in one). */
  layout?: Layout | undefined;
  out: string;
  embedder?: string;
  embedderOptions?: OnnxOptions;
  lambda?: number;
}): Promise<FitReaderRun> {
  const r = await fitHeroReader(o);
  await writeReaderFile(o.out, r.reader);
  return { out: o.out, films: r.films, pairs: r.pairs, cv_agreement: r.cv_agreement, folds: r.folds };
}

export const READER_CHECK_PROTOCOLS = ['listwise', 'pairwise'] as const;

/** A reader's agreement with the chains under `protocol`, the judge of `judge` opened and closed here. */
export async function checkReaderRun(
  o: Omit<ReaderCheckOptions, 'judge' | 'encoder'> & {
    judge: JudgeSettings;
    protocol: (typeof READER_CHECK_PROTOCOLS)[number];
  },
): Promise<ListwiseReaderCheck | ReaderCheck> {
  const { judge, protocol, ...rest } = o;
  return withTools({ judge, judgeProgress: false }, async (tools) => {
    const j = tools.needJudge();
    const opts = { ...rest, judge: j.judge, encoder: j.encoder };
    return protocol === 'listwise' ? checkReaderListwise(opts) : checkReader(opts);
  });
}
