/** `kfbench embed …`: try an embedder by hand and calibrate its match threshold. */
import type { Command } from 'commander';
import { HUB_VARIANT_NAMES } from '../embed/hub.js';
import { ONNX_DEVICES, type OnnxOptions } from '../embed/onnx-options.js';
import { EMBEDDER_FORMS } from '../embed/registry.js';
import { calibrateEmbedder, type EmbedderChoice, imageSimilarity } from '../embed/with-embedder.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import { addFlags, type FlagValues, flagSpecs, JSON_FLAG_SPECS } from './flags.js';
import { parseNumberFlag, printJson, printLines } from './output.js';
import { renderProgress } from './progress.js';

/** `--threads`, `--device` and `--variant` as ONNX options (every command that embeds takes them). */
export function onnxFlags(o: {
  threads?: string | undefined;
  device?: string | undefined;
  variant?: string | undefined;
}): OnnxOptions {
  const threads =
    o.threads === undefined
      ? undefined
      : parseNumberFlag('--threads', o.threads, (n) => Number.isInteger(n) && n > 0);
  const device = o.device === undefined ? undefined : ONNX_DEVICES.find((d) => d === o.device);
  if (o.device !== undefined && device === undefined)
    throw new UsageError(
      `--device must be ${ONNX_DEVICES.join(' or ')}, got "${o.device}"${didYouMean(o.device, ONNX_DEVICES)}`,
    );
  const variant = o.variant === undefined ? undefined : HUB_VARIANT_NAMES.find((v) => v === o.variant);
  if (o.variant !== undefined && variant === undefined)
    throw new UsageError(
      `--variant must be ${HUB_VARIANT_NAMES.join(' | ')}, got "${o.variant}"${didYouMean(o.variant, HUB_VARIANT_NAMES)}`,
    );
  return {
    ...(threads ? { threads } : {}),
    ...(device ? { device } : {}),
    ...(variant ? { variant } : {}),
  };
}

/** `--threads`, `--device` and `--variant` of a command that embeds. */
export const ONNX_FLAG_SPECS = flagSpecs({
  threads: {
    flags: '--threads <n>',
    description: 'ONNX intra-op threads (default: every core; give fewer when processes share a machine)',
  },
  device: {
    flags: '--device <d>',
    description: 'ONNX device: cpu | cuda (CUDA execution provider)',
    default: 'cpu',
  },
  variant: {
    flags: '--variant <v>',
    description: `ONNX file of a hub model (hf:, dinov3-small): ${HUB_VARIANT_NAMES.join(' | ')} (default fp32)`,
  },
});

/** Add `--threads`, `--device` and `--variant` to a command that embeds. */
export function onnxOptions(cmd: Command): Command {
  return addFlags(cmd, ONNX_FLAG_SPECS);
}

/** The embedder the flags name: --embedder, --threads/--device, --input-size, --cache. */
export function embedderChoice(o: EmbedderFlags): EmbedderChoice {
  const inputSize =
    o.inputSize === undefined
      ? undefined
      : parseNumberFlag('--input-size', o.inputSize, (n) => Number.isInteger(n) && n > 0);
  return {
    spec: o.embedder,
    options: { ...onnxFlags(o), ...(inputSize ? { overrides: { input_size: inputSize } } : {}) },
    cache: o.cache,
  };
}

/** The embedder's flags of `embed similarity` and `embed calibrate`. */
const EMBEDDER_FLAG_SPECS = flagSpecs({
  ...ONNX_FLAG_SPECS,
  embedder: { flags: '--embedder <spec>', description: EMBEDDER_FORMS, default: 'builtin' },
  cache: { flags: '--cache <file>', description: 'SQLite embedding cache' },
  inputSize: {
    flags: '--input-size <px>',
    description: 'ONNX input size, overriding the JSON beside the model',
  },
});

type EmbedderFlags = FlagValues<typeof EMBEDDER_FLAG_SPECS>;

const SIMILARITY_FLAG_SPECS = flagSpecs({ ...JSON_FLAG_SPECS, ...EMBEDDER_FLAG_SPECS });

const CALIBRATE_FLAG_SPECS = flagSpecs({
  pairs: {
    flags: '--pairs <file>',
    description: 'JSONL of labelled pairs (relative paths resolve against its folder)',
    required: true,
  },
  gamma: {
    flags: '--gamma <g>',
    description: "report FPR/FNR at this threshold too (default: the embedder's own, else 0.80)",
  },
  ...JSON_FLAG_SPECS,
  ...EMBEDDER_FLAG_SPECS,
});

export function registerEmbed(embed: Command): void {
  const similarity = embed
    .command('similarity')
    .description('cosine similarity of two images under an embedder')
    .argument('<a>')
    .argument('<b>');
  addFlags(similarity, SIMILARITY_FLAG_SPECS).action(
    async (a: string, b: string, o: FlagValues<typeof SIMILARITY_FLAG_SPECS>) => {
      const shown = renderProgress();
      const r = await imageSimilarity({ ...embedderChoice(o), onProgress: shown.onProgress }, a, b).finally(
        () => shown.close(),
      );
      if (o.json) printJson({ cosine: r.cosine });
      else
        printLines([
          `cosine ${r.cosine.toFixed(6)}  (${r.embedder}; its match threshold ${r.threshold ?? 'γ = 0.80, the DINOv3 default'})`,
        ]);
    },
  );

  const calibrate = embed
    .command('calibrate')
    .description('equal-error threshold from labelled pairs: lines {"a": image, "b": image, "label": 1|0}');
  addFlags(calibrate, CALIBRATE_FLAG_SPECS).action(async (o: FlagValues<typeof CALIBRATE_FLAG_SPECS>) => {
    const gamma =
      o.gamma === undefined ? undefined : parseNumberFlag('--gamma', o.gamma, (n) => n >= -1 && n <= 1);
    const shown = renderProgress();
    const {
      report: r,
      embedder,
      version,
    } = await calibrateEmbedder(
      { ...embedderChoice(o), onProgress: shown.onProgress },
      o.pairs,
      gamma,
    ).finally(() => shown.close());
    if (o.json) printJson(r);
    else
      printLines([
        `embedder ${embedder} (version ${version})`,
        `EER ${(100 * r.eer).toFixed(2)} % at threshold ${r.threshold.toFixed(4)}`,
        `at ${r.at.threshold}: FPR ${(100 * r.at.fpr).toFixed(2)} %  FNR ${(100 * r.at.fnr).toFixed(2)} %`,
        `positives n=${r.positives.n} mean cos ${r.positives.mean_cos.toFixed(3)} min ${r.positives.min_cos.toFixed(3)}`,
        `negatives n=${r.negatives.n} mean cos ${r.negatives.mean_cos.toFixed(3)} max ${r.negatives.max_cos.toFixed(3)}`,
        r.margin > 0
          ? `separated: a margin of ${r.margin.toFixed(4)} between the highest negative and the lowest positive (the EER threshold is its upper end)`
          : `not separated: positives and negatives overlap by ${(-r.margin).toFixed(4)}`,
        `use γ = ${r.recommended.toFixed(4)} (${r.margin > 0 ? 'the middle of the margin' : 'the EER threshold'}): ${embedder.startsWith('onnx:') ? `put it into the embedder's JSON as "threshold"` : 'pass it as --gamma'}`,
      ]);
  });
}
