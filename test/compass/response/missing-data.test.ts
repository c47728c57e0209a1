/**
 * Issue 47 item 8: where keyframe-response scoring meets data that can really be absent (a scan of
 * another case's keyframes, a one-take keyframe without its target time, a keyframe the scan holds
 * no curve for), it throws a typed error naming what is missing — before, a TypeError or a NaN score.
 */
import { describe, expect, it } from 'vitest';
import { localize } from '../../../src/compass/response/localization.js';
import { DEFAULT_RESPONSE_OPTIONS } from '../../../src/compass/response/options.js';
import { place } from '../../../src/compass/response/placement.js';
import { scoreResponse } from '../../../src/compass/response/report.js';
import type { Scan } from '../../../src/compass/schemas/scan.js';
import { InternalError } from '../../../src/errors.js';

/** A 20-frame scan at 10 fps with one similarity curve per entry of `peaks` (its peak frame). */
function scan(peaks: number[]): Scan {
  const sims = peaks.map((p) => Array.from({ length: 20 }, (_, j) => (j === p ? 0.95 : 0.1)));
  return {
    video: { width: 64, height: 36, fps: 10, frames: 20, duration_s: 2 },
    sample_fps: 10,
    times: Array.from({ length: 20 }, (_, j) => j / 10),
    sims,
    peaks: peaks.map((p) => ({ frame: p, cos: 0.95, psnr_db: 40, ssim: 0.95 })),
    shots: [{ start_s: 0, end_s: 2 }],
  };
}

const embedder = { id: 'test', defaultThreshold: 0.8 };

describe('scoring refuses absent data by name', () => {
  it('a scan holding fewer keyframes than the case: an InternalError naming the case', () => {
    const c = {
      case_id: 'ot-03',
      structure: 'one_take' as const,
      keyframes: [0.3, 1.0, 1.5].map((t, i) => ({
        kf_id: `kf${i + 1}`,
        image: `kf${i + 1}.png`,
        t_target_s: t,
      })),
    };
    expect(() => scoreResponse(c, scan([3, 10]), embedder)).toThrow(InternalError);
    expect(() => scoreResponse(c, scan([3, 10]), embedder)).toThrow(
      /case ot-03: 3 keyframes, but its scan holds 2/,
    );
  });

  it('a keyframe the scan holds no curve for: an InternalError naming it', () => {
    expect(() => place(scan([3]), 1, 0.8, DEFAULT_RESPONSE_OPTIONS)).toThrow(
      /no similarity curve for keyframe 1/,
    );
  });

  it('a one-take keyframe without t_target_s: an InternalError, not a NaN score', () => {
    const p = scan([3]).sims.map((_, k) => place(scan([3]), k, 0.8, DEFAULT_RESPONSE_OPTIONS));
    expect(() => localize('one_take', [{}], p, scan([3]).shots, DEFAULT_RESPONSE_OPTIONS)).toThrow(
      /one-take keyframe 1 has no t_target_s/,
    );
  });
});
