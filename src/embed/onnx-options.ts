/**
 * What an ONNX embedder is made with: its preprocessing (the JSON beside a model, or what a hub
 * model's preprocessor_config.json becomes) and the options a caller sets. Apart from onnx.ts so
 * that the embedder port (embedder.ts) can name them without importing the runtime's owner.
 */
import { z } from 'zod';

/** The largest input side (pixels) and the largest side a crop is taken from (issue 55). */
export const MAX_INPUT_SIDE = 2048;
export const MAX_CROP_FROM = 4096;
const side = (max: number) => z.number().int().positive().max(max);
const sides = (max: number) => z.union([side(max), z.tuple([side(max), side(max)])]);
const Mean = z.number().min(-255).max(255);
const Std = z.number().min(1e-6).max(255);

export const Preprocess = z.object({
  input_size: sides(MAX_INPUT_SIDE),
  resize: z.enum(['shorter_side_center_crop', 'squash']).default('shorter_side_center_crop'),
  crop_from: sides(MAX_CROP_FROM).optional(),
  rescale: z
    .number()
    .positive()
    .max(1)
    .default(1 / 255),
  mean: z.tuple([Mean, Mean, Mean]).default([0.485, 0.456, 0.406]),
  std: z.tuple([Std, Std, Std]).default([0.229, 0.224, 0.225]),
  layout: z.enum(['NCHW', 'NHWC']).default('NCHW'),
  input: z.string().optional(),
  output: z.string().optional(),
  pooling: z.enum(['cls', 'mean', 'pooled']).optional(),
  threshold: z.number().min(-1).max(1).optional(),
});
export type Preprocess = z.output<typeof Preprocess>;

export interface OnnxOptions {
  /** Field-by-field overrides of the JSON beside the model. */
  overrides?: Partial<z.input<typeof Preprocess>>;
  threads?: number;
  batch?: number;
  device?: OnnxDevice;
  /** Which ONNX file of a hub model (`hf:` only): fp32 (default), fp16 or q8. */
  variant?: 'fp32' | 'fp16' | 'q8';
}

export type OnnxDevice = 'cpu' | 'cuda';
export const ONNX_DEVICES: OnnxDevice[] = ['cpu', 'cuda'];
