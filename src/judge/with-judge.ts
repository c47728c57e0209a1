/**
 * A judge for the length of one call: opened from its settings, handed to `fn`, and closed
 * whatever `fn` does (its cache's claims released, its connections ended). The commands that ask a
 * judge by hand, and the runs in `src/runs/`, go through it.
 */

import { type OpenedJudge, openJudge } from './registry.js';
import type { JudgeSettings } from './settings.js';

export type JudgeTuning = Parameters<typeof openJudge>[1];

export async function withJudge<T>(
  settings: JudgeSettings,
  fn: (j: OpenedJudge) => Promise<T>,
  tuning: JudgeTuning = {},
): Promise<T> {
  const j = await openJudge(settings, tuning);
  try {
    return await fn(j);
  } finally {
    await j.close();
  }
}
