/**
 * A hub repository's `preprocessor_config.json` (a Hugging Face image processor's settings) as
 * the preprocessing object onnx.ts reads from a JSON beside a local model — the same fields, so
 * `hf:` and `onnx:PATH` with the equivalent JSON give the same vectors:
 *   do_resize + size {height, width}            → input_size [H, W], resize "squash"
 *   do_resize + size {shortest_edge} + do_center_crop + crop_size
 *                                               → input_size = crop, crop_from = shortest_edge
 *   do_center_crop + crop_size (no resize)      → input_size = crop, crop_from = the size as is
 *   do_rescale/rescale_factor                   → rescale (1 when do_rescale is false)
 *   do_normalize/image_mean/image_std           → mean, std (0 and 1 when do_normalize is false)
 * Kept apart from it: `resample` (PIL's filter number) — kfbench resizes with libvips' Lanczos3
 * for every model, so a resized pixel differs slightly from transformers' (a crop never does).
 * The feature is the model's pooled output (`pooler_output`) when it has one, else the CLS token
 * of `last_hidden_state` (KeyFrame-Compass uses "L2-normalized DINOv3 features").
 */
import { z } from 'zod';
import { BadInputError, messageOf } from '../errors.js';
import { describeZodError } from '../store/jsonl.js';
import { readTextFile } from '../store/limits.js';
import { MAX_INPUT_SIDE, MAX_CROP_FROM as MAX_RESIZE_SIDE } from './onnx-options.js';

/**
 * Bounds on what a (possibly hostile) config may ask for (issue 55): a side of at most
 * MAX_INPUT_SIDE pixels (a shortest edge to resize to, MAX_RESIZE_SIDE), a rescale in (0, 1], means
 * within ±255 and stds in [1e-6, 255] (0–255 pixel units at most), all finite; three channels.
 */
const side = (max: number) => z.number().int().positive().max(max);
const Int = side(MAX_INPUT_SIDE);
const HW = z.object({ height: Int, width: Int });
const Mean = z.number().min(-255).max(255);
const Std = z.number().min(1e-6).max(255);
const Channels = (v: z.ZodNumber) => z.union([v, z.tuple([v, v, v])]);

const HfImageProcessor = z.looseObject({
  do_resize: z.boolean().nullish(),
  size: z.union([Int, HW, z.looseObject({ shortest_edge: side(MAX_RESIZE_SIDE) })]).nullish(),
  do_center_crop: z.boolean().nullish(),
  crop_size: z.union([Int, HW]).nullish(),
  do_rescale: z.boolean().nullish(),
  rescale_factor: z.number().positive().max(1).nullish(),
  do_normalize: z.boolean().nullish(),
  image_mean: Channels(Mean).nullish(),
  image_std: Channels(Std).nullish(),
  resample: z.number().int().nullish(),
});

const IMAGENET_MEAN = [0.485, 0.456, 0.406];
const IMAGENET_STD = [0.229, 0.224, 0.225];

const three = (v: number | readonly number[] | null | undefined, d: number[]) =>
  v === null || v === undefined ? d : typeof v === 'number' ? [v, v, v] : [...v];

const pair = (v: number | { height: number; width: number }): [number, number] =>
  typeof v === 'number' ? [v, v] : [v.height, v.width];

/** The preprocessing object (onnx.ts `Preprocess` input) of a `preprocessor_config.json`. */
export function preprocessFromHubConfig(file: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(readTextFile(file));
  } catch (e) {
    if (e instanceof BadInputError) throw e;
    throw new BadInputError(`not valid JSON (${messageOf(e)})`, { file });
  }
  const parsed = HfImageProcessor.safeParse(raw);
  if (!parsed.success)
    throw new BadInputError(`image processor: ${describeZodError(parsed.error)}`, { file });
  const c = parsed.data;
  const resize = c.do_resize ?? true;
  const crop = (c.do_center_crop ?? false) && c.crop_size ? pair(c.crop_size) : undefined;
  const size = resize ? c.size : undefined;
  const rescale = (c.do_rescale ?? true) ? (c.rescale_factor ?? 1 / 255) : 1;
  const normalize = c.do_normalize ?? true;
  const out: Record<string, unknown> = {
    rescale,
    mean: normalize ? three(c.image_mean, IMAGENET_MEAN) : [0, 0, 0],
    std: normalize ? three(c.image_std, IMAGENET_STD) : [1, 1, 1],
    layout: 'NCHW',
  };
  if (crop) {
    out.input_size = crop;
    out.resize = 'shorter_side_center_crop';
    if (size && typeof size === 'object' && 'shortest_edge' in size) out.crop_from = size.shortest_edge;
    else if (size) out.crop_from = pair(size as number | { height: number; width: number });
    else
      throw new BadInputError(
        'a center crop without a resize crops a size that depends on the image; kfbench needs a fixed one: pass --input-size, or use onnx:PATH with a JSON',
        { file },
      );
    return out;
  }
  if (!size || (typeof size === 'object' && 'shortest_edge' in size))
    throw new BadInputError(
      `no fixed input size (${size ? 'size.shortest_edge without a center crop' : 'no resize'}): the model's input size would depend on the image; use onnx:PATH with a JSON that names input_size`,
      { file },
    );
  out.input_size = pair(size as number | { height: number; width: number });
  out.resize = 'squash';
  return out;
}

/** The outputs a hub model's feature comes from, in order of preference. */
export const HUB_FEATURE_OUTPUTS = ['pooler_output', 'last_hidden_state'] as const;
