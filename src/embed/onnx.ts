/**
 * The only file that imports onnxruntime-node: an image model exported to ONNX (DINOv2/DINOv3,
 * CLIP-image, SigLIP-image …) loaded from a local path, never from a hub.
 *
 * Preprocessing comes from a JSON file beside the model (`model.json` for `model.onnx`, else
 * `preprocess.json` in the same folder), overridable field by field:
 *   input_size   224 or [H, W]
 *   resize       "shorter_side_center_crop" (default) | "squash"
 *   crop_from    optional, with shorter_side_center_crop: resize to this first (a number: the
 *                shorter side, the longer one scaled and truncated; [H, W]: exactly), then cut the
 *                centre input_size out (Hugging Face image processors' do_resize + do_center_crop)
 *   rescale      the pixel scale before mean/std (default 1/255: pixels to [0, 1])
 *   mean, std    per channel, applied after scaling pixels (default ImageNet's)
 *   layout       "NCHW" (default) | "NHWC"
 *   input        input name (default: the model's first input)
 *   output       output name (default: the model's first output)
 *   pooling      "cls" (token 0 of a [N, T, D] output) | "mean" (mean of tokens 1…T−1) |
 *                "pooled" (a [N, D] output as is); default: pooled for rank 2, cls for rank 3
 *   threshold    optional: this model's calibrated match threshold
 * A model from the hub (`hf:`, hub.ts) comes with its preprocessing derived from the repository's
 * `preprocessor_config.json` instead (hub-preprocess.ts) — the same object, through `source`.
 * Threads: every core by default (`availableParallelism()`; pass `threads` when several processes
 * embed at once). Device: `cpu`, or `cuda` — ONNX Runtime's CUDA execution provider, which needs an
 * onnxruntime-node build that ships it plus the CUDA runtime and cuDNN; when it cannot load, the
 * error names what is missing (exit 4) instead of falling back to the CPU unasked.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { BackendError, BadInputError, messageOf } from '../errors.js';
import type { RawImage } from '../media/raw.js';
import { loadNative } from '../native.js';
import { describeZodError } from '../store/jsonl.js';
import { readTextFile } from '../store/limits.js';
import type { Embedder, EmbedderSpec } from './embedder.js';
import { fitImage, inputSizeFor, type ModelInput } from './onnx-fit.js';
import { type OnnxDevice, type OnnxOptions, Preprocess } from './onnx-options.js';
import { type Pooling, poolOutput } from './onnx-pool.js';

let ortModule: typeof Ort | undefined;

/** onnxruntime-node, loaded on first use: a missing or broken build is one backend error (exit 4). */
function ort(): typeof Ort {
  ortModule ??= loadNative(
    'onnxruntime-node',
    () => createRequire(import.meta.url)('onnxruntime-node') as typeof Ort,
  );
  return ortModule;
}

/**
 * Where a model that is not `onnx:PATH` with its JSON comes from (a hub model, hub.ts): its
 * preprocessing, the file that preprocessing was read from (for errors), the output names to
 * prefer when the preprocessing names none, and the embedder's id, spec and extra config.
 */
export interface OnnxSource {
  preprocess: Record<string, unknown>;
  file: string;
  outputs: readonly string[];
  id: string;
  spec: EmbedderSpec;
  config: Readonly<Record<string, unknown>>;
}

/** Session options for a device; a CUDA provider that will not load is a BackendError naming what is missing. */
async function createSession(
  modelPath: string,
  threads: number,
  device: OnnxDevice,
): Promise<Ort.InferenceSession> {
  // no spinning: between runs the embedder's threads sleep instead of polling the cores the
  // decoder and the JavaScript around each batch need (issue 57 item 9)
  const base = {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all' as const,
    extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
  };
  if (device === 'cpu')
    return ort().InferenceSession.create(modelPath, { ...base, executionProviders: ['cpu'] });
  try {
    // fatal only: the provider's own multi-line load error is reported below, in one line
    ort().env.logLevel = 'fatal';
    return await ort().InferenceSession.create(modelPath, {
      ...base,
      executionProviders: ['cuda'],
      logSeverityLevel: 4,
    });
  } catch (e) {
    const why = messageOf(e).split('\n')[0] ?? '';
    if (/provider|shared library|cuda|cudnn/i.test(why))
      throw new BackendError(
        `--device cuda: ONNX Runtime's CUDA execution provider could not be loaded (${why}); it needs an onnxruntime-node build with libonnxruntime_providers_cuda.so and libonnxruntime_providers_shared.so (Linux x64), the CUDA 12 runtime and cuDNN 9 on the library path, and a visible GPU — or use --device cpu`,
      );
    throw e;
  }
}

function preprocessFile(modelPath: string): string | undefined {
  const dir = dirname(modelPath);
  const candidates = [
    join(dir, `${basename(modelPath).replace(/\.onnx$/i, '')}.json`),
    join(dir, 'preprocess.json'),
  ];
  return candidates.find((c) => existsSync(c));
}

function readPreprocess(
  modelPath: string,
  overrides: OnnxOptions['overrides'],
  source: OnnxSource | undefined,
): Preprocess {
  const file = source?.file ?? preprocessFile(modelPath);
  let base: unknown = source?.preprocess ?? {};
  if (file && !source) {
    try {
      base = JSON.parse(readTextFile(file));
    } catch (e) {
      if (e instanceof BadInputError) throw e;
      throw new BadInputError(`not valid JSON (${messageOf(e)})`, { file });
    }
  }
  const merged = {
    ...(typeof base === 'object' ? base : {}),
    ...Object.fromEntries(Object.entries(overrides ?? {}).filter(([, v]) => v !== undefined)),
  };
  const parsed = Preprocess.safeParse(merged);
  if (!parsed.success) {
    const where = file ?? modelPath;
    const hint = file
      ? ''
      : ` (no ${basename(modelPath).replace(/\.onnx$/i, '')}.json or preprocess.json beside the model: write one, or pass --input-size)`;
    throw new BadInputError(`preprocessing: ${describeZodError(parsed.error)}${hint}`, { file: where });
  }
  return parsed.data;
}

/**
 * The model's input and output the embedder uses, checked against the preprocessing: named ones
 * present, a float32 input of the shape the preprocessing gives; and the pooling (by the output's
 * rank unless set).
 */
function modelIo(
  session: Ort.InferenceSession,
  pre: Preprocess,
  size: { W: number; H: number; file: string },
  source: OnnxSource | undefined,
): { inputName: string; outputName: string; pooling: Pooling } {
  const { W, H, file: modelPath } = size;
  const inputName = pre.input ?? session.inputNames[0];
  if (inputName === undefined) throw new BadInputError('the model has no inputs', { file: modelPath });
  const outputName =
    pre.output ?? source?.outputs.find((n) => session.outputNames.includes(n)) ?? session.outputNames[0];
  if (outputName === undefined) throw new BadInputError('the model has no outputs', { file: modelPath });
  if (!session.inputNames.includes(inputName)) {
    throw new BadInputError(
      `the model has no input "${inputName}" (it has ${session.inputNames.join(', ')})`,
      { file: modelPath },
    );
  }
  if (!session.outputNames.includes(outputName)) {
    throw new BadInputError(
      `the model has no output "${outputName}" (it has ${session.outputNames.join(', ')})`,
      { file: modelPath },
    );
  }
  const meta = session.inputMetadata.find((m) => m.name === inputName);
  if (meta?.isTensor && meta.type !== 'float32')
    throw new BadInputError(
      `model input "${inputName}" takes ${meta.type} tensors; kfbench feeds float32 (for a hub model: --variant fp32 or q8)`,
      { file: modelPath },
    );
  const expected = pre.layout === 'NCHW' ? [null, 3, H, W] : [null, H, W, 3];
  if (meta?.isTensor) {
    const shape = meta.shape;
    const fits =
      shape.length === 4 && shape.every((d, i) => typeof d !== 'number' || i === 0 || d === expected[i]);
    if (!fits) {
      throw new BadInputError(
        `model input "${inputName}" has shape [${shape.join(', ')}] but the preprocessing gives [N, ${expected.slice(1).join(', ')}] (${pre.layout}, input_size ${H}×${W})`,
        { file: modelPath },
      );
    }
  }
  const outMeta = session.outputMetadata.find((m) => m.name === outputName);
  const outRank = outMeta?.isTensor ? outMeta.shape.length : undefined;
  const pooling = pre.pooling ?? (outRank === 2 ? 'pooled' : 'cls');
  return { inputName, outputName, pooling };
}

export async function loadOnnxEmbedder(
  modelPath: string,
  opts: OnnxOptions = {},
  source?: OnnxSource,
): Promise<Embedder> {
  if (!existsSync(modelPath)) throw new BadInputError('no such model file', { file: modelPath });
  const pre = readPreprocess(modelPath, opts.overrides, source);
  const [H, W] = typeof pre.input_size === 'number' ? [pre.input_size, pre.input_size] : pre.input_size;
  let session: Ort.InferenceSession;
  try {
    session = await createSession(modelPath, opts.threads ?? availableParallelism(), opts.device ?? 'cpu');
  } catch (e) {
    if (e instanceof BackendError) throw e;
    throw new BadInputError(`not a loadable ONNX model (${messageOf(e).split('\n')[0]})`, {
      file: modelPath,
    });
  }
  const { inputName, outputName, pooling } = modelIo(session, pre, { W, H, file: modelPath }, source);
  const version = createHash('sha256').update(readFileSync(modelPath)).digest('hex').slice(0, 16);
  const batch = Math.max(1, opts.batch ?? 8);
  let released = false;

  const input: ModelInput = { W, H, file: source?.file ?? modelPath };
  const toTensor = async (images: readonly RawImage[]): Promise<Ort.Tensor> => {
    const data = new Float32Array(images.length * 3 * H * W);
    for (const [k, img0] of images.entries()) {
      const img = await fitImage(pre, input, img0);
      const d = img.data;
      const off = k * 3 * H * W;
      for (let p = 0; p < H * W; p++) {
        for (let c = 0; c < 3; c++) {
          const v = (d[p * 3 + c]! * pre.rescale - pre.mean[c]!) / pre.std[c]!;
          data[pre.layout === 'NCHW' ? off + c * H * W + p : off + p * 3 + c] = v;
        }
      }
    }
    return new (ort().Tensor)(
      'float32',
      data,
      pre.layout === 'NCHW' ? [images.length, 3, H, W] : [images.length, H, W, 3],
    );
  };

  return {
    id: source?.id ?? `onnx:${basename(modelPath).replace(/\.onnx$/i, '')}`,
    version,
    config: {
      ...source?.config,
      input_size: [H, W],
      resize: pre.resize,
      // only when set or not the default, so that the keys of models made before them stay
      ...(pre.crop_from !== undefined && pre.resize !== 'squash' ? { crop_from: pre.crop_from } : {}),
      ...(pre.rescale !== 1 / 255 ? { rescale: pre.rescale } : {}),
      mean: pre.mean,
      std: pre.std,
      layout: pre.layout,
      input: inputName,
      output: outputName,
      pooling,
    },
    defaultThreshold: pre.threshold,
    spec: source?.spec ?? { name: `onnx:${modelPath}`, options: structuredClone(opts) },
    inputSize(w, h) {
      return inputSizeFor(pre, input, w, h);
    },
    async embed(images) {
      const out: Float32Array[] = [];
      for (let s = 0; s < images.length; s += batch) {
        const tensor = await toTensor(images.slice(s, s + batch));
        const result = await session.run({ [inputName]: tensor }, [outputName]);
        const t = result[outputName];
        if (!t) throw new BackendError(`ONNX Runtime returned no output "${outputName}" for ${modelPath}`);
        out.push(...poolOutput({ data: t.data as Float32Array, dims: t.dims }, pooling));
      }
      return out;
    },
    // closing twice is fine (the registry's contract): onnxruntime refuses a second release
    async close() {
      if (released) return;
      released = true;
      await session.release();
    },
  };
}

/** A raw `session.run` on a ready tensor: the ceiling that bench/embed compares against. */
export async function rawOnnxSession(
  modelPath: string,
  threads = 1,
): Promise<{
  run: (data: Float32Array, dims: number[]) => Promise<void>;
  release: () => Promise<void>;
}> {
  const s = await ort().InferenceSession.create(modelPath, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
  });
  return {
    run: async (data, dims) => {
      await s.run({ [s.inputNames[0]!]: new (ort().Tensor)('float32', data, dims) });
    },
    release: () => s.release(),
  };
}
