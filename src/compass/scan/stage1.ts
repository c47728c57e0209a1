/**
 * Stage 1 of keyframe matching (scan.ts reads the video; stage2.ts states stage 2): each sampled
 * frame is embedded in batches and its cosine similarity to every keyframe recorded; each
 * keyframe's best sampled frame is kept (its pixel-size luma, `FramePair.fullLuma`) for its pixel
 * score, and the shot detector sees every sampled frame. When stage 2 rides along, the frames
 * stage 1 does not sample go to it (`between`) and the sampled ones with their similarities (`push`).
 */
import { cosine, type Embedder } from '../../embed/embedder.js';
import { InternalError } from '../../errors.js';
import type { FramePair } from '../../media/pairs.js';
import { compareRaw, type ImageComparison } from '../../media/quality.js';
import type { RawImage } from '../../media/raw.js';
import type { ShotDetector } from '../../media/shots.js';
import type { VideoInfo } from '../../media/video-info.js';
import type { ScanPeak } from '../schemas/scan.js';
import type { PreparedKeyframes } from './keyframe-prep.js';
import { StageTwoAlong } from './stage2-along.js';

/** How stage 1 samples: the video, its sampling rate, whether above the cap, and the frames kept when kfbench samples. */
export interface StageOnePlan {
  info: VideoInfo;
  sampleFps: number;
  capped: boolean;
  /** The frames stage 1 samples when ffmpeg sends every frame (stage 2 riding along above the cap). */
  sampled: ReadonlySet<number> | undefined;
  /** Stage 2 rides along, with these constants. */
  along: { gamma: number; holdTolerance_db: number | null; holdMatch_db: number } | undefined;
  batch: number;
}

export class StageOne {
  readonly sims: number[][];
  readonly best: number[];
  readonly bestFrame: ((() => RawImage) | undefined)[];
  readonly bestIndex: number[];
  /** Each sampled frame's presentation time (the start of its display interval). */
  readonly times: number[] = [];
  /** Each sampled frame's index among the samples, by its frame number in the file. */
  readonly sampledAt = new Map<number, number>();
  along: StageTwoAlong | undefined;
  kvecs: Float32Array[] = [];
  private batch: FramePair[] = [];
  private inBatch = 0;

  constructor(
    private readonly K: number,
    private readonly embedder: Embedder,
    private readonly prepared: Promise<PreparedKeyframes>,
    private readonly shots: ShotDetector,
    private readonly plan: StageOnePlan,
  ) {
    this.sims = Array.from({ length: K }, () => []);
    this.best = new Array<number>(K).fill(Number.NEGATIVE_INFINITY);
    this.bestFrame = new Array(K).fill(undefined);
    this.bestIndex = new Array<number>(K).fill(0);
  }

  /** A frame read, in order; a full batch of sampled frames is embedded. */
  async add(pair: FramePair): Promise<void> {
    const { sampled } = this.plan;
    this.batch.push(pair);
    if (!sampled || sampled.has(pair.index)) this.inBatch++;
    if (this.inBatch >= this.plan.batch) {
      this.inBatch = 0;
      await this.flush();
    }
  }

  /** Embed the frames held (the last, partial batch at the end). */
  async flush(): Promise<void> {
    if (!this.batch.length) return;
    const { sampled, along } = this.plan;
    if (!this.kvecs.length) {
      const p = await this.prepared;
      this.kvecs = p.kvecs;
      if (along)
        this.along = new StageTwoAlong(p.luma, along.gamma, along.holdTolerance_db, along.holdMatch_db);
    }
    const read = this.batch;
    this.batch = [];
    const ones = sampled ? read.filter((p) => sampled.has(p.index)) : read;
    const vecs = ones.length ? await this.embedder.embed(ones.map((p) => p.small)) : [];
    let b = -1;
    for (const pair of read) {
      if (sampled && !sampled.has(pair.index)) {
        this.along?.between(pair);
        continue;
      }
      b++;
      const vec = vecs[b];
      if (!vec)
        throw new InternalError(`scan: the embedder gave ${vecs.length} vectors for ${ones.length} frames`);
      this.sampledFrame(pair, vec);
    }
  }

  private sampledFrame(pair: FramePair, vec: Float32Array): void {
    const { info } = this.plan;
    const row = new Array<number>(this.K);
    const j = this.times.length;
    this.sampledAt.set(pair.index, j);
    // every time is the frame's own presentation time (above the cap too: the sampled frame's)
    this.times.push(pair.time_s);
    this.shots.push(pair.small, info.times ? pair.time_s : undefined);
    for (let k = 0; k < this.K; k++) {
      const s = cosine(this.kvec(k), vec);
      this.sims[k]?.push(s);
      row[k] = s;
      if (s > (this.best[k] ?? Number.NEGATIVE_INFINITY)) {
        this.best[k] = s;
        this.bestFrame[k] = pair.fullLuma;
        this.bestIndex[k] = j;
      }
    }
    this.along?.push(j, pair, row);
  }

  kvec(k: number): Float32Array {
    const v = this.kvecs[k];
    if (!v) throw new InternalError(`scan: no embedding for keyframe ${k} of ${this.kvecs.length}`);
    return v;
  }

  /**
   * Each keyframe's best sampled frame with its pixel score, and the scoring function it used: a
   * keyframe's score on a frame is computed once (stage 2's f*(k) is often stage 1's best frame).
   */
  peaks(p: PreparedKeyframes): {
    peaks: ScanPeak[];
    compare: (k: number, frame: () => RawImage) => ImageComparison;
  } {
    const scored = Array.from({ length: this.K }, () => new Map<() => RawImage, ImageComparison>());
    const compare = (k: number, frame: () => RawImage) => {
      const memo = scored[k];
      const pixels = p.pixels[k];
      if (!memo || !pixels) throw new InternalError(`scan: no pixel-size keyframe ${k} of ${this.K}`);
      let cmp = memo.get(frame);
      if (!cmp) {
        cmp = compareRaw(frame(), pixels, p.reference(k));
        memo.set(frame, cmp);
      }
      return cmp;
    };
    const peaks: ScanPeak[] = [];
    for (let k = 0; k < this.K; k++) {
      const frame = this.bestFrame[k];
      // every keyframe has a best frame once one frame was sampled (the scan refuses none)
      if (!frame) throw new InternalError(`scan: keyframe ${k} has no best frame`);
      const cmp = compare(k, frame);
      peaks.push({
        frame: this.bestIndex[k] ?? 0,
        cos: this.best[k] ?? 0,
        psnr_db: cmp.psnr_db,
        ssim: cmp.ssim,
      });
    }
    return { peaks, compare };
  }
}
