/**
 * kfbench's public API, chosen name by name (no `export *`): what a program needs to run either
 * benchmark, read and write its files through their one schema each, and use the building blocks
 * (media, embedders, judges, statistics) on its own material. Everything else is internal and may
 * change without notice. The CLI (`kfbench …`) is built on exactly these pieces.
 */

// ── Compass: cases, keyframe response, video quality, both leaderboards ──────────────────────
export { align } from './compass/align/align.js';
export { exportScores, exportScoresFile } from './compass/align/export-scores.js';
export {
  type Case,
  type Keyframe,
  type LoadedCase,
  loadCases,
  PROMPT_MODES,
  type PromptMode,
} from './compass/cases/cases.js';
export { generationPrompt } from './compass/cases/prompts.js';
export { leaderboard } from './compass/overall/leaderboard.js';
export { scoreModels, summarize } from './compass/response/models.js';
export { DEFAULT_RESPONSE_OPTIONS, type ResponseOptions } from './compass/response/options.js';
export { writeResponseRun } from './compass/response/outputs.js';
export { scoreResponse } from './compass/response/report.js';
export { sensitivity } from './compass/response/sensitivity.js';
export { evaluateCompass } from './compass/run/evaluate.js';
export { writeEvaluationRun } from './compass/run/outputs.js';
export { type CompassRunInput, scanSettings } from './compass/run/run.js';
export { DEFAULT_SCAN_OPTIONS, type ScanOptions } from './compass/scan/options.js';
export { scanVideo } from './compass/scan/scan.js';
export { EvaluationRunFile, VideoEvaluation } from './compass/schemas/evaluation.js';
export { Leaderboard } from './compass/schemas/leaderboard.js';
export { Checklist } from './compass/schemas/quality.js';
export {
  METRICS,
  type ResponseReport,
  ResponseRow,
  ResponseRunFile,
  ResponseSummary,
} from './compass/schemas/response.js';
export { Scan } from './compass/schemas/scan.js';
// ── concurrency ─────────────────────────────────────────────────────────────────────────────
export { abortReason, sleep } from './concurrency/abort.js';
export { type PoolOptions, type PoolResult, runPool } from './concurrency/pool.js';
export { RateLimiter, type RateLimits, type Ticket } from './concurrency/rate.js';
export { Semaphore } from './concurrency/semaphore.js';
// ── embedders ───────────────────────────────────────────────────────────────────────────────
export { createBuiltinEmbedder } from './embed/builtin.js';
export { calibrateFromPairs } from './embed/calibrate.js';
export { cosine, type Embedder } from './embed/embedder.js';
export { loadOnnxEmbedder } from './embed/onnx.js';
export { createEmbedder } from './embed/registry.js';
// ── errors and progress ─────────────────────────────────────────────────────────────────────
export {
  BackendError,
  BadInputError,
  CancelledError,
  EnvironmentError,
  type ErrorCode,
  EXIT_CODES,
  InternalError,
  isKfbenchError,
  KfbenchError,
  PartialError,
  UsageError,
} from './errors.js';
// ── HeroFrame: the dataset, its track, selection methods, chains, evaluation, analyses ─────
export { type CorpusStats, corpusStats } from './hero/analyze/corpus.js';
export {
  type HumanResult,
  humanAgreement,
  type RubricSwapResult,
  rubricSwap,
} from './hero/analyze/judge-agreement.js';
export { type PositionResult, positionAnalysis } from './hero/analyze/position.js';
export { buildChains } from './hero/build/build.js';
export type { BuildOptions } from './hero/build/options.js';
export { type DatasetPaths, datasetPaths, imagePath, trackFramePath } from './hero/dataset/layout.js';
export { type HeroDataset, loadChains, loadCore, loadRubrics } from './hero/dataset/load.js';
export {
  BaselineRow,
  BuildReport,
  Chain,
  Clip,
  Criterion,
  FilmChains,
  FilmClips,
  FilmRubric,
  ImageHash,
  Movie,
  RubricProposal,
  Selection,
  TrackRow,
  VerifyRow,
} from './hero/dataset/schemas.js';
export { checkSelections } from './hero/dataset/selections.js';
export { type ValidationReport, validateDataset } from './hero/dataset/validate.js';
export {
  type EvaluateResult as HeroEvaluateResult,
  evaluate as evaluateHero,
} from './hero/evaluate/evaluate.js';
export type { EvaluateOptions as HeroEvaluateOptions, SubmittedMethod } from './hero/evaluate/options.js';
export { heroInstructions } from './hero/prompt.js';
export {
  checkReader,
  checkReaderListwise,
  type FitReport,
  fitHeroReader,
  type ListwiseReaderCheck,
  type ReaderCheck,
} from './hero/reader/reader.js';
export {
  FilmScore,
  finiteOrNull,
  HeroRun,
  HeroSummary,
  InsertionRecord,
  InsertionVerdict,
  Measure,
  MethodSummary,
  PairedDifference,
} from './hero/results.js';
export type { SelectContext, SelectionMethod } from './hero/select/method.js';
export { METHODS, methodByName } from './hero/select/registry.js';
export { runSelection, type SelectOptions } from './hero/select/run.js';
export { makeIndex } from './hero/track/make-index.js';
export { type RebuildOptions, type RebuildResult, rebuildTrack } from './hero/track/rebuild.js';
export { Timeline } from './hero/track/timeline.js';
export { type VerifyOptions, verifyTrack } from './hero/track/verify.js';
// ── judges ──────────────────────────────────────────────────────────────────────────────────
export { type CacheMergeReport, mergeJudgeCaches } from './judge/cache-merge.js';
export { ImageEncoder } from './judge/images.js';
export { type InsertionProtocol, insertIntoChain } from './judge/insertion.js';
export { Judge } from './judge/judge.js';
export { fitLocalReader, LocalBackend, ReaderFile, readReaderFile, writeReaderFile } from './judge/local.js';
export { OpenAiBackend, type OpenAiOptions } from './judge/openai.js';
export { comparePair, type PairOutcome } from './judge/pairwise.js';
export { resolveJudgeSettings } from './judge/precedence.js';
export type { Question } from './judge/question.js';
export { openJudge, parseJudgeSpec } from './judge/registry.js';
export type { JudgeBackend, JudgeImage, JudgeStats } from './judge/types.js';
export { withJudge } from './judge/with-judge.js';
// ── media ───────────────────────────────────────────────────────────────────────────────────
export type { FrameRequest } from './media/frame-plan.js';
export { streamClips, streamFrames, type VideoFrame } from './media/frames.js';
export { dhash, dhashFile, hamming } from './media/hash.js';
export { decodeImage, encodeImage, loadImage, resizeImage } from './media/image.js';
export { imageStats } from './media/image-stats.js';
export { probe } from './media/probe.js';
export { compareImageFiles, compareRaw, psnr, ssim } from './media/quality.js';
export type { RawImage } from './media/raw.js';
export { sampleToDir } from './media/sample.js';
export type { ShotResult } from './media/shot-options.js';
export { detectShots } from './media/shots.js';
export type { VideoInfo } from './media/video-info.js';
export { noProgress, type OnProgress, type Phase, type ProgressEvent, phaseReporter } from './progress.js';
export {
  writeEvaluation as writeHeroEvaluation,
  writeHeroRun,
} from './report/hero-outputs.js';
// ── runs: one function per command, each taking a typed options object (src/runs/) ───────────
export {
  type CompassEvaluateInput,
  type CompassEvaluation,
  type CompassEvaluationPlan,
  evaluateCompassRun,
  planCompassEvaluation,
} from './runs/compass-evaluate.js';
export { mergeCompassRun } from './runs/compass-merge.js';
export {
  type CompassScoreInput,
  compassSensitivity,
  scoreCompass,
  scoreVideoResponse,
} from './runs/compass-score.js';
export { type DemoOptions, type DemoOutcome, type DemoPart, runDemo } from './runs/demo.js';
export { humanAgreementRun, rubricSwapRun } from './runs/hero-analyze.js';
export { type BuildRunInput, type BuildRunReport, buildChainsRun } from './runs/hero-build.js';
export {
  evaluateHeroFolder,
  evaluateHeroRun,
  type HeroFolderInput,
  type HeroRunEvaluated,
  type HeroRunInput,
  heroRunRecord,
  planHeroRun,
} from './runs/hero-evaluate.js';
export { mergeHeroRun } from './runs/hero-merge.js';
export { checkReaderRun, fitReaderRun } from './runs/hero-reader.js';
export { type SelectRunInput, selectRun } from './runs/hero-select.js';
export type { MergeOptions } from './runs/merge-options.js';
// ── statistics ──────────────────────────────────────────────────────────────────────────────
export { bootstrap, pairedBootstrap, percentileInterval } from './stats/bootstrap.js';
export { fitBradleyTerry, toScale0to100 } from './stats/bradley-terry.js';
export { equalErrorRate } from './stats/eer.js';
export { krippendorffAlpha } from './stats/krippendorff.js';
export { mean, meanOrNull, sum } from './stats/mean.js';
export { signFlipTest } from './stats/permutation.js';
export { mcnemar, wilson } from './stats/proportion.js';
export { kendallTauB, spearman } from './stats/rank.js';
export { createRng, type Rng, shuffled } from './stats/rng.js';

// ── files ───────────────────────────────────────────────────────────────────────────────────
export { writeFileAtomic } from './store/atomic-write.js';
export { readJsonFile, readJsonl, readJsonlAll, writeJsonl } from './store/jsonl.js';
