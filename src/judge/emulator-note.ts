/**
 * The VLM emulator is not a judge (issue 57 item 5): a judge or reader that is the emulator — the
 * model name it answers to by default, `kfbench-emulator`, in a judge spec or a recorded judge
 * name — is named as such wherever its numbers are shown (stderr, reports, viewer pages).
 */

/** Whether a judge spec or recorded judge/reader name is the emulator. */
export function isEmulatorJudge(judge: string | undefined): boolean {
  return judge !== undefined && /(^|[^\w-])kfbench-emulator($|[^\w-])/.test(judge);
}

/** The sentence said beside its numbers. */
export const EMULATOR_NOTE =
  "the judge is kfbench's VLM emulator, not a model: a fixed rule on pixel statistics and loudness that checks the pipeline; its scores say nothing about the videos or frames";

/** The note for a judge or reader name, or '' when it is not the emulator. */
export function emulatorNote(judge: string | undefined): string {
  return isEmulatorJudge(judge) ? EMULATOR_NOTE : '';
}
