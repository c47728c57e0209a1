/** The embedder port: images → L2-normalised vectors. Backends live in one file each. */

import { BackendError, InternalError } from '../errors.js';
import type { RawImage } from '../media/raw.js';
import type { OnProgress } from '../progress.js';
import type { OnnxOptions } from './onnx-options.js';

/**
 * How to make an embedder again from plain (structured-cloneable) data, e.g. in a worker thread:
 * the name `createEmbedder` (registry.ts) takes — `builtin`, `onnx:PATH` — and its options.
 */
export interface EmbedderSpec {
  readonly name: string;
  readonly options?: Readonly<OnnxOptions> | undefined;
}

export interface Embedder {
  /** Stable name, e.g. `builtin` or `onnx:dinov2-small`. Enters every cache key. */
  readonly id: string;
  /** Version of the weights/features (e.g. a hash of the model file). Enters every cache key. */
  readonly version: string;
  /** Everything else that changes the vectors (preprocessing). Enters every cache key. */
  readonly config: Readonly<Record<string, unknown>>;
  /** The embedder's own default match threshold, when it has one (the builtin does). */
  readonly defaultThreshold: number | undefined;
  /**
   * How to make this embedder again (in a worker thread, say); absent for one that cannot be
   * (a wrapper with its own state, a test double): the caller then keeps to this one.
   */
  readonly spec?: EmbedderSpec | undefined;
  /**
   * The frame size this embedder would resize a w×h video frame to first (so a video reader can
   * have ffmpeg scale frames once, in C); the embedder still accepts any size.
   */
  inputSize(width: number, height: number): { width: number; height: number };
  /** Embed a batch; every vector is L2-normalised. An unreadable image fails the batch. */
  embed(images: readonly RawImage[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** The paper's threshold for DINOv3 features (KeyFrame-Compass, appendix B). */
export const DINOV3_GAMMA = 0.8;

export function l2normalize(v: Float32Array | Float64Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  const out = new Float32Array(v.length);
  if (n === 0) return out;
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / n;
  return out;
}

/** Cosine similarity of two L2-normalised vectors (their dot product), computed in double. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new InternalError(`vectors differ in length: ${a.length} vs ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** What making an embedder may report (a hub model's download progress). */
export interface EmbedderHooks {
  onProgress?: OnProgress | undefined;
}

/**
 * `e.embed(images)` checked to give one vector an image, in order: an embedder that gives fewer or
 * more (a broken model or backend) is a BackendError naming it, not an undefined vector later.
 */
export async function embedEach(e: Embedder, images: readonly RawImage[]): Promise<Float32Array[]> {
  const out = await e.embed(images);
  if (out.length !== images.length)
    throw new BackendError(`embedder ${e.id} gave ${out.length} vectors for ${images.length} images`);
  return out;
}

/** The vector of one image (`embedEach`). */
export async function embedOne(e: Embedder, image: RawImage): Promise<Float32Array> {
  const [v] = await embedEach(e, [image]);
  if (!v) throw new BackendError(`embedder ${e.id} gave no vector for an image`);
  return v;
}

/** The vectors of two images (`embedEach`). */
export async function embedTwo(e: Embedder, a: RawImage, b: RawImage): Promise<[Float32Array, Float32Array]> {
  const [va, vb] = await embedEach(e, [a, b]);
  if (!va || !vb) throw new BackendError(`embedder ${e.id} gave no vector for an image`);
  return [va, vb];
}
