/**
 * An image brought to an ONNX model's input size as its preprocessing says (onnx-options.ts):
 * squashed, or its shorter side resized and the centre cut out — first to `crop_from` when set
 * (Hugging Face image processors' do_resize + do_center_crop).
 */
import { BadInputError } from '../errors.js';
import { resizeImage } from '../media/image.js';
import { cropRaw, type RawImage } from '../media/raw.js';
import type { Preprocess } from './onnx-options.js';

/** The model's input: its size and the file errors name. */
export interface ModelInput {
  W: number;
  H: number;
  file: string;
}

/** The size an image of `w`×`h` is resized to before the centre crop, when `crop_from` is set. */
function cropFrom(pre: Preprocess, w: number, h: number): { width: number; height: number } | undefined {
  if (pre.crop_from === undefined || pre.resize === 'squash') return undefined;
  if (typeof pre.crop_from !== 'number') return { width: pre.crop_from[1], height: pre.crop_from[0] };
  // the shorter side to crop_from, the longer one scaled and truncated (as transformers does)
  const s = pre.crop_from;
  return w <= h
    ? { width: s, height: Math.floor((s * h) / w) }
    : { width: Math.floor((s * w) / h), height: s };
}

/** The size an image of `w`×`h` is best given at (`Embedder.inputSize`): what the resize makes of it. */
export function inputSizeFor(pre: Preprocess, input: ModelInput, w: number, h: number) {
  const { W, H } = input;
  if (pre.resize === 'squash') return { width: W, height: H };
  const first = cropFrom(pre, w, h);
  if (first) return first;
  const k = Math.max(W / w, H / h); // shorter side to the input, then the model's crop
  return { width: Math.max(W, Math.round(w * k)), height: Math.max(H, Math.round(h * k)) };
}

/** `img0` at the model's input size, as RGB. */
export async function fitImage(pre: Preprocess, input: ModelInput, img0: RawImage): Promise<RawImage> {
  const { W, H } = input;
  if (img0.width === W && img0.height === H && img0.channels === 3) return img0;
  const first = cropFrom(pre, img0.width, img0.height);
  if (!first) return resizeImage(img0, W, H, pre.resize === 'squash' ? 'fill' : 'cover');
  const sized =
    img0.width === first.width && img0.height === first.height && img0.channels === 3
      ? img0
      : await resizeImage(img0, first.width, first.height, 'fill');
  if (sized.width < W || sized.height < H)
    throw new BadInputError(
      `crop_from ${JSON.stringify(pre.crop_from)} gives ${sized.width}×${sized.height}, smaller than the ${W}×${H} crop`,
      { file: input.file },
    );
  // the centre, its offsets rounded down (transformers' center_crop)
  return cropRaw(sized, Math.floor((sized.width - W) / 2), Math.floor((sized.height - H) / 2), W, H);
}
