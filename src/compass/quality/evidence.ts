/**
 * The measured evidence the grouped judge may cite (seed §E.4: "auxiliary tool evidence"): the
 * shots detected and each shot's camera motion.
 */
import type { LoadedCase } from '../cases/cases.js';
import type { ScanShot } from '../schemas/scan.js';

/**
 * The measured evidence lines: the shots detected (with what the case requested, unless `request`
 * is false: AV Coordination's question shows nothing of the request) and the camera motion.
 */
export function evidenceText(
  c: LoadedCase,
  shots: readonly ScanShot[],
  motion: readonly string[] = [],
  request = true,
): string {
  const asked =
    c.structure === 'one_take'
      ? 'one take requested'
      : `${new Set(c.keyframes.map((k) => k.shot_index)).size} shots requested`;
  const lines = [
    `- shots detected: ${shots.length}${request ? ` (${asked})` : ''}: ${shots.map((s) => `[${s.start_s.toFixed(2)}, ${s.end_s.toFixed(2)}) s`).join(', ')}`,
  ];
  if (motion.length) lines.push(`- camera motion per shot: ${motion.join('; ')}`);
  return lines.join('\n');
}
