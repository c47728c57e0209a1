/**
 * `hero analyze human` and `hero analyze rubric-swap` as one call each: the judge opened from its
 * settings (`withTools`) and closed whatever happens, the analysis of hero/analyze/judge-agreement.ts
 * run with it; the result names the reader.
 */
import {
  type HumanResult,
  humanAgreement,
  type RubricSwapResult,
  rubricSwap,
} from '../hero/analyze/judge-agreement.js';
import type { Layout } from '../hero/dataset/layout-map.js';
import type { JudgeSettings } from '../judge/settings.js';
import { withTools } from './tools.js';

/** A run of `hero analyze human` or `rubric-swap`: the dataset and the judge's settings. */
interface RunInput {
  root: string;
  /** The layout map the root's files are read through. */
  layout: Layout;
  judge: JudgeSettings;
}

/** `humanAgreement` with the judge of `o.judge` opened and closed here; the result names the reader. */
export function humanAgreementRun(
  o: RunInput & { pairs: string },
): Promise<HumanResult & { reader: string }> {
  return withTools({ judge: o.judge, judgeProgress: false }, async (tools) => {
    const j = tools.needJudge();
    const r = await humanAgreement(
      { root: o.root, layout: o.layout, judge: j.judge, encoder: j.encoder },
      o.pairs,
    );
    return { ...r, reader: j.judge.name };
  });
}

/** `rubricSwap` with the judge of `o.judge` opened and closed here; the result names the reader. */
export function rubricSwapRun(
  o: RunInput & { seed: string | number },
): Promise<RubricSwapResult & { reader: string }> {
  return withTools({ judge: o.judge, judgeProgress: false }, async (tools) => {
    const j = tools.needJudge();
    const r = await rubricSwap(
      { root: o.root, layout: o.layout, judge: j.judge, encoder: j.encoder },
      o.seed,
    );
    return { ...r, reader: j.judge.name };
  });
}
