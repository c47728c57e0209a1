/** `hero select` as one call: what the method needs (a judge, an embedder) opened and closed. */
import type { OnnxOptions } from '../embed/onnx-options.js';
import { runSelection, type SelectOptions } from '../hero/select/run.js';
import type { JudgeSettings } from '../judge/settings.js';
import { withTools } from './tools.js';

export interface SelectRunInput extends Omit<SelectOptions, 'judge' | 'embedder'> {
  /** The judge's settings, for a method that asks one (vlm-pick); opened here and closed. */
  judge?: JudgeSettings | undefined;
  /** The embedder, for a method that needs one (cluster): builtin | onnx:PATH; opened here and closed. */
  embedder?: string | undefined;
  embedderOptions?: OnnxOptions | undefined;
}

/** `hero select` as one call: what the method needs (a judge, an embedder) opened, the selections written, all closed. */
export async function selectRun(o: SelectRunInput): Promise<{ films: number; frames: number }> {
  const { judge: settings, embedder: spec, embedderOptions, ...input } = o;
  const needs = o.method.needs ?? {};
  const opened = {
    judge: needs.judge ? settings : undefined,
    embedder: needs.embedder ? { spec: spec ?? 'builtin', options: embedderOptions } : undefined,
    judgeProgress: false,
  };
  return withTools(opened, ({ judge, embedder }) =>
    runSelection({
      ...input,
      ...(judge ? { judge: { judge: judge.judge, encoder: judge.encoder } } : {}),
      ...(embedder ? { embedder } : {}),
    }),
  );
}
