/**
 * The `local` reader: the embedded default, no server, deterministic. A Bradley–Terry model with a
 * linear utility u(x) = w·φ(x) over an embedder's features. It answers pairwise questions (the
 * image with the higher utility wins; exact ties go to the image with the smaller hash, so it never
 * contradicts itself under swapped placements) and listwise insertion (position = chain images
 * with a lower utility); anything else gets a refusal, which the judge records as unresolved.
 * It ignores the prompt's wording (and so the rubric). Reports always name it.
 *
 * File format (`reader.json`): {"format": "kfbench-local-reader", "version": 1, "embedder": "builtin",
 * "embedder_version": "1", "lambda": 1, "w": [...], "fitted": {...}}.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { type Embedder, embedOne } from '../embed/embedder.js';
import { createEmbedder } from '../embed/registry.js';
import { BadInputError, messageOf, UsageError } from '../errors.js';
import { decodeImage } from '../media/image.js';
import { fitLogistic } from '../stats/logistic.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { sha256Hex } from '../store/canonical.js';
import { describeZodError } from '../store/jsonl.js';
import { readTextFile } from '../store/limits.js';
import type { BackendReply, BackendRequest, CallTracker, JudgeBackend } from './types.js';

export const ReaderFile = z.object({
  format: z.literal('kfbench-local-reader'),
  version: z.literal(1),
  embedder: z.string().min(1),
  embedder_version: z.string(),
  lambda: z.number().positive(),
  w: z.array(z.number()).min(1),
  fitted: z.record(z.string(), z.unknown()).optional(),
});
export type ReaderFile = z.output<typeof ReaderFile>;

const HOW_TO_MAKE_A_READER =
  'make one with `npx kfbench hero fit-reader --data DIR --out reader.json` (or fitLocalReader() from the library)';

export function readReaderFile(path: string): { reader: ReaderFile; hash: string } {
  if (!existsSync(path)) throw new UsageError(`local reader ${path} does not exist: ${HOW_TO_MAKE_A_READER}`);
  const text = readTextFile(path);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new BadInputError(`not valid JSON (${messageOf(e)})`, { file: path });
  }
  const r = ReaderFile.safeParse(json);
  if (!r.success)
    throw new BadInputError(`not a local reader file: ${describeZodError(r.error)}`, { file: path });
  return { reader: r.data, hash: sha256Hex(text).slice(0, 16) };
}

export class LocalBackend implements JudgeBackend {
  readonly name = 'local';
  readonly model: string;
  readonly identity: Record<string, unknown>;
  private readonly utilities = new Map<string, number>();

  private readonly reader: ReaderFile;
  private readonly embedder: Embedder;

  /** `hash`: the reader file's (its weights' identity); `embedder`: the one it was fitted on. */
  constructor({ reader, hash, embedder }: { reader: ReaderFile; hash: string; embedder: Embedder }) {
    this.reader = reader;
    this.embedder = embedder;
    if (embedder.id !== reader.embedder)
      throw new BadInputError(`reader was fitted on ${reader.embedder}, not ${embedder.id}`);
    this.model = `reader-${hash}`;
    this.identity = { weights: hash, embedder: embedder.id, embedder_version: embedder.version };
  }

  static async open(path: string): Promise<LocalBackend> {
    const { reader, hash } = readReaderFile(path);
    return new LocalBackend({ reader, hash, embedder: await createEmbedder(reader.embedder) });
  }

  async utility(img: { bytes: Buffer; sha256: string }): Promise<number> {
    let u = this.utilities.get(img.sha256);
    if (u === undefined) {
      const v = await embedOne(this.embedder, await decodeImage(img.bytes, 'judge image'));
      if (v.length !== this.reader.w.length)
        throw new BadInputError(
          `reader has ${this.reader.w.length} weights but the embedder gives ${v.length} features`,
        );
      u = 0;
      for (let i = 0; i < v.length; i++) u += this.reader.w[i]! * v[i]!;
      this.utilities.set(img.sha256, u);
    }
    return u;
  }

  private better(ua: number, ha: string, ub: number, hb: string): boolean {
    return ua > ub || (ua === ub && ha < hb);
  }

  async complete(
    req: BackendRequest,
    _signal?: AbortSignal,
    _gate?: AbortSignal,
    track?: CallTracker,
  ): Promise<BackendReply> {
    track?.started();
    let ok = false;
    try {
      const r = await this.answer(req);
      ok = true;
      return r;
    } finally {
      track?.finished(ok);
    }
  }

  private async answer(req: BackendRequest): Promise<BackendReply> {
    const t0 = performance.now();
    const u = await Promise.all(req.images.map((i) => this.utility(i)));
    let text: string;
    if (req.protocol === 'pairwise' && u.length === 2) {
      const aWins = this.better(u[0]!, req.images[0]!.sha256, u[1]!, req.images[1]!.sha256);
      text = JSON.stringify({
        // the label shown with the winning image (A/B, or B/A for a relabelled question)
        winner: aWins ? (req.labels[0] ?? 'A') : (req.labels[1] ?? 'B'),
        reason: `utility ${u[0]!.toFixed(4)} vs ${u[1]!.toFixed(4)}`,
      });
    } else if (req.protocol === 'listwise' && u.length >= 2) {
      const f = u.length - 1;
      let position = 0;
      for (let i = 0; i < f; i++)
        if (this.better(u[f]!, req.images[f]!.sha256, u[i]!, req.images[i]!.sha256)) position++;
      text = JSON.stringify({ position, reason: 'utility order' });
    } else {
      text = `I cannot answer this: the local reader only answers pairwise and listwise insertion questions (asked: ${req.protocol}).`;
    }
    return {
      text,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
      latency_ms: performance.now() - t0,
      retries: 0,
    };
  }

  async close(): Promise<void> {
    await this.embedder.close();
  }
}

export interface LabelledPair {
  /** Features of the two images. */
  a: Float32Array;
  b: Float32Array;
  winner: 'a' | 'b';
}

/**
 * Fit a local reader: L2-regularised logistic regression (λ = 1 by default) on feature differences
 * of labelled pairs; both orientations of each pair enter, so the fit is placement-symmetric.
 */
export function fitLocalReader(
  pairs: readonly LabelledPair[],
  embedder: { id: string; version: string },
  lambda = 1,
  fitted?: Record<string, unknown>,
): ReaderFile {
  const xs: Float64Array[] = [];
  const ys: (1 | -1)[] = [];
  for (const p of pairs) {
    const d = Float64Array.from(p.a, (v, i) => v - p.b[i]!);
    xs.push(
      d,
      d.map((v) => -v),
    );
    const y = p.winner === 'a' ? 1 : -1;
    ys.push(y, y === 1 ? -1 : 1);
  }
  const { w } = fitLogistic(xs, ys, lambda);
  return {
    format: 'kfbench-local-reader',
    version: 1,
    embedder: embedder.id,
    embedder_version: embedder.version,
    lambda,
    w: Array.from(w),
    ...(fitted ? { fitted } : {}),
  };
}

export async function writeReaderFile(path: string, reader: ReaderFile): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(reader)}\n`);
}
