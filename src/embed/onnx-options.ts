/**
 * What an ONNX embedder is made with: its preprocessing (the JSON beside a model, or what a hub
 * model's preprocessor_config.json becomes) and the options a caller sets. Apart from onnx.ts so
 * that the embedder port (embedder.ts) can name them without importing the runtime's owner.
 */
import { z } from 'zod';

export const Preprocess = z.object({
  input_size: z.union([
    z.number().int().positive(),
    z.tuple([z.number().int().positive(), z.number().int().positive()]),
  ]),
  resize: z.enum(['shorter_side_center_crop', 'squash']).default('shorter_side_center_crop'),
  crop_from: z
    .union([z.number().int().positive(), z.tuple([z.number().int().positive(), z.number().int().positive()])])
    .optional(),
  rescale: z
    .number()
    .positive()
    .default(1 / 255),
  mean: z.tuple([z.number(), z.number(), z.number()]).default([0.485, 0.456, 0.406]),
  std: z
    .tuple([z.number().positive(), z.number().positive(), z.number().positive()])
    .default([0.229, 0.224, 0.225]),
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
