/**
 * The judge segmenter sends frames at the quality judge's settings (--quality-fps, --frame-width,
 * --frame-budget), not a fixed 8 fps at 384 px: a scripted backend counts what it is sent.
 */
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../../src/compass/cases/cases.js';
import { judgeSegmenter } from '../../src/compass/quality/segment.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { Judge } from '../../src/judge/judge.js';
import type { BackendRequest, JudgeBackend } from '../../src/judge/types.js';
import { probe } from '../../src/media/probe.js';
import { media } from '../support/paths.js';

function scripted(seen: BackendRequest[]): Judge {
  const backend: JudgeBackend = {
    name: 'scripted',
    model: 'm',
    identity: {},
    complete: (req) => {
      seen.push(req);
      return Promise.resolve({
        text: JSON.stringify({ boundaries_s: [], assignments: [{ kf_id: 'k1', shot: 0 }] }),
        usage: { prompt_tokens: 0, completion_tokens: 0 },
        latency_ms: 0,
        retries: 0,
      });
    },
    close: () => Promise.resolve(),
  };
  return new Judge(backend);
}

const c = { keyframes: [{ kf_id: 'k1', image: media('base.png') }] } as unknown as LoadedCase;

describe('the judge segmenter honours the quality frame settings', () => {
  it('--quality-fps and --frame-budget change the frames sent; the default is 8 fps', async () => {
    const video = media('shots.mp4');
    const info = await probe(video);
    const frames = async (settings?: { fps?: number; budget?: number }) => {
      const seen: BackendRequest[] = [];
      const seg = judgeSegmenter(scripted(seen), new ImageEncoder(384), probe, undefined, settings);
      const r = await seg(c, video, [{ start_s: 0, end_s: info.duration_s }]);
      expect(r.segmenter).toBe('judge');
      expect(seen).toHaveLength(1);
      return seen[0]!.images.length - c.keyframes.length;
    };
    const dflt = await frames();
    expect(dflt).toBe(Math.round(info.duration_s * 8));
    expect(await frames({ fps: 2 })).toBe(Math.round(info.duration_s * 2));
    expect(await frames({ budget: 5 })).toBe(5);
  });
});
