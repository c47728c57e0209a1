/**
 * A judge asked by hand (`kfbench judge pair`, `judge insert`): image files compared or inserted
 * into a chain, under instructions with an optional rubric file's lines, by a judge opened from
 * its settings and closed whatever happens.
 */
import { BadInputError } from '../errors.js';
import { readTextFile } from '../store/limits.js';
import { type InsertionProtocol, insertIntoChain } from './insertion.js';
import { comparePair, type PairOutcome } from './pairwise.js';
import type { JudgeSettings } from './settings.js';
import { withJudge } from './with-judge.js';

export const DEFAULT_INSTRUCTIONS = 'Choose the image that works better as a cover image.';

/** `instructions`, followed by the lines of `rubricFile` (one guideline a line) when there is one. */
export function instructionsWithRubric(instructions: string, rubricFile?: string): string {
  if (!rubricFile) return instructions;
  let lines: string[];
  try {
    lines = readTextFile(rubricFile, { missing: 'no such rubric file' })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  } catch (e) {
    if (e instanceof BadInputError) throw e;
    throw new BadInputError('cannot read the rubric file', { file: rubricFile });
  }
  if (!lines.length) return instructions;
  return `${instructions}\n\nGuidelines:\n${lines.map((l) => `- ${l.replace(/^[-*]\s*/, '')}`).join('\n')}`;
}

/** Two image files compared under both placements. */
export function judgePairFiles(o: { judge: JudgeSettings; a: string; b: string; instructions: string }) {
  return withJudge(o.judge, async (j) => {
    const [ia, ib] = await Promise.all([j.encoder.fromFile(o.a), j.encoder.fromFile(o.b)]);
    const r = await comparePair(j.judge, ia, ib, o.instructions);
    const answer: Pick<PairOutcome, 'winner' | 'status' | 'verdicts' | 'calls' | 'cached'> = {
      winner: r.winner,
      status: r.status,
      verdicts: r.verdicts,
      calls: r.calls,
      cached: r.cached,
    };
    return { reader: j.judge.name, answer };
  });
}

/** An image file inserted into a chain of image files ordered best first. */
export function insertFile(o: {
  judge: JudgeSettings;
  candidate: string;
  chain: readonly string[];
  instructions: string;
  protocol: InsertionProtocol;
}) {
  return withJudge(o.judge, async (j) => {
    const cand = await j.encoder.fromFile(o.candidate);
    const chain = await Promise.all(o.chain.map((c) => j.encoder.fromFile(c)));
    const r = await insertIntoChain(j.judge, cand, chain, o.instructions, o.protocol);
    return { position: r.position, calls: r.calls, cached: r.cached, unresolved: r.unresolved };
  });
}
