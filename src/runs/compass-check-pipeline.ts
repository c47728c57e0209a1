/**
 * `compass check-pipeline`: the identities of compass/check/identities.ts on the user's own cases,
 * scored with the user's embedder and metric settings. The check videos are made in a folder of
 * the run's own (removed at the end, kept with `keep`); no scan cache is read or written.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadedCase, loadCases, loadOneCase } from '../compass/cases/cases.js';
import { checkPipeline, type PipelineCheck } from '../compass/check/identities.js';
import type { ResponseOptions } from '../compass/response/options.js';
import { scoreResponse } from '../compass/response/report.js';
import { DEFAULT_SCAN_OPTIONS, type ScanOptions } from '../compass/scan/options.js';
import { FIT, scanVideo } from '../compass/scan/scan.js';
import type { Embedder } from '../embed/embedder.js';
import type { OnnxOptions } from '../embed/onnx-options.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { withTools } from './tools.js';

export interface CheckPipelineInput {
  casesFile: string;
  /** One case; all of the file's when absent. */
  caseId?: string | undefined;
  embedder: string;
  embedderOptions?: OnnxOptions | undefined;
  response: ResponseOptions;
  scan: Partial<ScanOptions>;
  /** Keep the check videos in this folder (else a temporary one, removed). */
  keep?: string | undefined;
  onProgress?: OnProgress | undefined;
  /** Aborting stops the scan under way (Ctrl-C). */
  signal?: AbortSignal | undefined;
}

export async function checkCompassPipeline(o: CheckPipelineInput): Promise<PipelineCheck[]> {
  const cases: LoadedCase[] =
    o.caseId === undefined
      ? await loadCases(o.casesFile)
      : [await loadOneCase({ casesFile: o.casesFile, caseId: o.caseId })];
  const tools = { embedder: { spec: o.embedder, options: o.embedderOptions }, onProgress: o.onProgress };
  return withTools(tools, (t) => checkAll(o, cases, t.needEmbedder()));
}

async function checkAll(
  o: CheckPipelineInput,
  cases: LoadedCase[],
  embedder: Embedder,
): Promise<PipelineCheck[]> {
  const root = o.keep ?? (await mkdtemp(join(tmpdir(), 'kfbench-check-')));
  const progress = phaseReporter(o.onProgress, 'check-pipeline', 'videos');
  progress.start(cases.length * 7);
  try {
    const out: PipelineCheck[] = [];
    for (const c of cases) {
      const dir = await mkdtemp(join(root, `${c.case_id}-`));
      out.push(
        await checkPipeline(c, {
          dir,
          fit: FIT[o.scan.keyframeFit ?? DEFAULT_SCAN_OPTIONS.keyframeFit],
          persistence_s: o.response.persistence_s,
          onVideo: (name) => progress.done(`${c.case_id}/${name}`),
          score: async (video, rendered) =>
            scoreResponse(
              rendered,
              await scanVideo(
                { video, keyframes: rendered.keyframes },
                embedder,
                o.scan,
                {},
                undefined,
                o.signal,
              ),
              embedder,
              o.response,
            ),
        }),
      );
    }
    progress.finish();
    return out;
  } finally {
    if (!o.keep) await rm(root, { recursive: true, force: true });
  }
}
