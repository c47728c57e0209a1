/**
 * One backend call of the judge, told to the progress stream, and what the call adds to the
 * judge's statistics.
 */
import { JUDGE_CALLS, type OnProgress } from '../progress.js';
import type { BackendReply, BackendRequest, CallTracker, JudgeBackend, JudgeStats } from './types.js';

/**
 * One backend call, told to the progress stream when it goes out (the backend says when: after
 * waiting for one of its slots) and when it comes back. A backend that never says is told of
 * once it has answered.
 */
export async function callBackend(
  backend: JudgeBackend,
  req: BackendRequest,
  signals: { judge: AbortSignal | undefined; call: AbortSignal | undefined },
  emit: OnProgress | undefined,
): Promise<BackendReply> {
  if (!emit) return backend.complete(req, signals.judge, signals.call);
  let started = false;
  let finished = false;
  const track: CallTracker = {
    started() {
      if (started) return;
      started = true;
      emit({ type: 'call-started', phase: JUDGE_CALLS });
    },
    finished(ok) {
      if (!started || finished) return;
      finished = true;
      emit({ type: 'call-finished', phase: JUDGE_CALLS, ok });
    },
  };
  let r: BackendReply;
  try {
    r = await backend.complete(req, signals.judge, signals.call, track);
  } catch (e) {
    track.finished(false); // a backend that said it started but not that it ended
    throw e;
  }
  track.started();
  track.finished(true);
  return r;
}

/** Count one backend reply (`attempt` 1 is a re-ask) in the judge's statistics. */
export function countCall(stats: JudgeStats, r: BackendReply, attempt: number): void {
  stats.calls++;
  stats.retries += r.retries;
  stats.prompt_tokens += r.usage.prompt_tokens;
  stats.completion_tokens += r.usage.completion_tokens;
  stats.latency_ms += r.latency_ms;
  if (attempt === 1) stats.reasks++;
}
