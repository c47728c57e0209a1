/**
 * The emulator's Compass prompts (deterministic):
 *  - checklist generation → fixed, valid items per metric (three, or the prompt's lower bound when
 *    higher), anchored on the case's keyframes;
 *  - the grouped judge → item scores from frame statistics, with the time ranges of the frames used
 *    and the `support` the score implies (an item its checklist marks not_applicable is answered
 *    `not_applicable`, unscored):
 *    SVQ from the frames' sharpness against the keyframes'; DVQ from frozen stretches (≥ 2 s of
 *    identical frames) and flicker (brightness jumping back and forth); AC from how far the frames
 *    closest to each keyframe drift from its colour; VMA from the measured shot count against the
 *    requested structure; AMA and AVC from the attached track's loudness (`compass-audio.ts`); SOC
 *    and PR are not visible to it (0.75, "no evidence against"), nor is audio without a track.
 *  - shot segmentation → edit boundaries from isolated jumps in its frame differences, keyframes
 *    assigned to the shot of their closest frame (see `segmentHandler`).
 * On request (`malformed`) the grouped reply is wrong on purpose, item by item: a score of 0.6, an
 * unknown item id, evidence past the end of the video, and the last metric left out.
 * It was written to notice the mini set's quality faults; it says nothing about a real judge.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InternalError } from '../../errors.js';
import { hamming } from '../../media/hash.js';
import { readTextFile } from '../../store/limits.js';
import type { AudioFeatures } from './audio.js';
import { judgeAudio } from './compass-audio.js';
import type { ImageFeatures } from './features.js';
import type { PromptHandler } from './handler.js';

/**
 * The fixed checklist items per metric — `[dimension, question, scope]` — a data file beside the
 * prompt templates (`assets/emulator/compass-items.json`), read once and checked by its schema.
 */
const ItemsFile = z.record(
  z.string(),
  z.array(z.tuple([z.string(), z.string(), z.enum(['shot', 'cross_shot', 'full_video'])])).min(1),
);
const ITEMS_FILE = fileURLToPath(new URL('../../../assets/emulator/compass-items.json', import.meta.url));
let items: z.output<typeof ItemsFile> | undefined;

function checklistItems(metric: string) {
  items ??= ItemsFile.parse(JSON.parse(readTextFile(ITEMS_FILE)));
  const pool = items[metric] ?? items.SVQ;
  if (!pool) throw new InternalError(`${ITEMS_FILE} has no SVQ items`);
  return pool;
}

/** Checklist generation: {"items":[…]} with three fixed items for the metric named in the prompt. */
export const checklistHandler: PromptHandler = {
  kind: 'compass-checklist',
  matches: (t) => /"items":\[\{"item_id"/.test(t) && !/"metrics":\[/.test(t),
  answer: ({ text }) => {
    const metric = /Metric: (\w+) \(/.exec(text)?.[1] ?? 'SVQ';
    const kfs = [...text.matchAll(/^ {2}- ([A-Za-z0-9._-]+): /gm)].map((m) => m[1]!);
    // as many items as the prompt's lower bound asks, at least three
    const min = Number(/Write between (\d+) and/.exec(text)?.[1] ?? 3);
    const pool = checklistItems(metric);
    const items = pool
      .slice(0, Math.max(3, Math.min(min, pool.length)))
      .map(([dimension, question, scope], i) => ({
        item_id: `${metric}-${i + 1}`,
        question,
        scope,
        anchors: i === 0 ? kfs : kfs.slice(0, 1),
        dimension,
      }));
    return { items };
  },
};

const SCALE = [0, 0.25, 0.5, 0.75, 1];
const anchor = (x: number) => SCALE.reduce((a, b) => (Math.abs(b - x) < Math.abs(a - x) ? b : a));

interface Frame {
  t: number;
  f: ImageFeatures;
}

function dist(a: ImageFeatures, b: ImageFeatures): number {
  return Math.hypot(a.rgb[0] - b.rgb[0], a.rgb[1] - b.rgb[1], a.rgb[2] - b.rgb[2]);
}

/** Per metric: a score in [0, 1] and the frames (times) it rests on. */
function judge(
  metric: string,
  frames: Frame[],
  kfs: ImageFeatures[],
  text: string,
  dt: number,
  audio: AudioFeatures | undefined,
): { score: number; from: number; to: number; why: string } {
  if ((metric === 'AMA' || metric === 'AVC') && audio) return judgeAudio(metric, frames, audio);
  const first = frames[0]?.t ?? 0;
  const last = frames[frames.length - 1]?.t ?? 0;
  switch (metric) {
    case 'SVQ': {
      const ref = kfs.reduce((s, k) => s + k.sharpness, 0) / Math.max(1, kfs.length);
      const worst = frames.reduce((a, b) => (b.f.sharpness < a.f.sharpness ? b : a), frames[0]!);
      const mean = frames.reduce((s, x) => s + x.f.sharpness, 0) / frames.length;
      return {
        score: Math.min(1, mean / Math.max(1e-9, ref)),
        from: worst.t,
        to: worst.t,
        why: `mean sharpness ${mean.toFixed(3)} vs keyframes ${ref.toFixed(3)}`,
      };
    }
    case 'DVQ': {
      let run = 1;
      let longest = 1;
      let at = first;
      for (let i = 1; i < frames.length; i++) {
        run = frames[i]!.f.fingerprint === frames[i - 1]!.f.fingerprint ? run + 1 : 1;
        if (run > longest) {
          longest = run;
          at = frames[i - run + 1]!.t;
        }
      }
      const frozen = longest * dt >= 2 ? 0.5 : 0;
      let flips = 0;
      for (let i = 2; i < frames.length; i++) {
        const d1 = frames[i - 1]!.f.brightness - frames[i - 2]!.f.brightness;
        const d2 = frames[i]!.f.brightness - frames[i - 1]!.f.brightness;
        if (Math.abs(d1) > 0.06 && Math.abs(d2) > 0.06 && Math.sign(d1) !== Math.sign(d2)) flips++;
      }
      const flicker = Math.min(0.75, (flips / Math.max(1, frames.length - 2)) * 4);
      return {
        score: Math.max(0, 1 - frozen - flicker),
        from: frozen ? at : first,
        to: frozen ? at + longest * dt : last,
        why: `longest frozen stretch ${(longest * dt).toFixed(2)} s, ${flips} brightness reversals`,
      };
    }
    case 'AC': {
      let worst = 0;
      let at = first;
      for (const k of kfs) {
        const near = frames.reduce((a, b) => (dist(b.f, k) < dist(a.f, k) ? b : a), frames[0]!);
        const d = dist(near.f, k);
        if (d > worst) {
          worst = d;
          at = near.t;
        }
      }
      return {
        score: Math.max(0, 1 - worst * 8),
        from: at,
        to: at,
        why: `largest colour drift from a keyframe ${worst.toFixed(3)}`,
      };
    }
    case 'VMA': {
      const shots = Number(/shots detected: (\d+)/.exec(text)?.[1] ?? 1);
      const oneTake = /one take requested/.test(text);
      const wanted = Number(/(\d+) shots requested/.exec(text)?.[1] ?? shots);
      const ok = oneTake ? shots === 1 : shots === wanted;
      return {
        score: ok ? 1 : 0,
        from: first,
        to: last,
        why: `${shots} shots detected, ${oneTake ? '1' : wanted} requested`,
      };
    }
    default:
      return { score: 0.75, from: first, to: last, why: 'no evidence against' };
  }
}

interface GroupedItem {
  item_id: string;
  score?: number;
  support?: 'pass' | 'partial' | 'fail';
  not_applicable?: true;
  evidence?: { t_start_s: number; t_end_s: number; observation: string }[];
}

/** The grouped judge: {"metrics":[{"metric","items":[{"item_id","score","support","evidence"}]}]}. */
export const groupedHandler: PromptHandler = {
  kind: 'compass-grouped',
  matches: (t) => /"metrics":\[\{"metric"/.test(t),
  answer: ({ text, images, audio, malformed }) => {
    const labels = [...text.matchAll(/^Image (\S+):$/gm)].map((m) => m[1]!);
    const frames: Frame[] = [];
    const kfs: ImageFeatures[] = [];
    labels.forEach((l, i) => {
      const t = /^t=([\d.]+)s$/.exec(l);
      if (t) frames.push({ t: Number(t[1]), f: images[i]! });
      else if (images[i]) kfs.push(images[i]!);
    });
    const duration = Number(/The video lasts ([\d.]+) s/.exec(text)?.[1] ?? 0);
    const dt =
      frames.length > 1 ? (frames[frames.length - 1]!.t - frames[0]!.t) / (frames.length - 1) : 1 / 8;
    const lists = [...text.matchAll(/^(SVQ|DVQ|AC|SOC|PR|VMA|AMA|AVC) \([^)]*\): (\[.*\])$/gm)].map((m) => ({
      metric: m[1]!,
      items: JSON.parse(m[2]!) as { item_id: string; not_applicable?: boolean }[],
    }));
    const metrics = lists.map(({ metric, items }) => {
      const j = judge(metric, frames, kfs, text, dt, audio);
      const scored: GroupedItem[] = items.map((it, i) => {
        if (it.not_applicable) return { item_id: it.item_id, not_applicable: true };
        // the first item carries the measurement; the others agree with it, a notch kinder
        const score = anchor(i === 0 ? j.score : Math.min(1, j.score + 0.25));
        return {
          item_id: it.item_id,
          score,
          support: score === 1 ? 'pass' : score === 0 ? 'fail' : 'partial',
          evidence: [
            {
              t_start_s: +j.from.toFixed(3),
              t_end_s: +Math.min(duration, j.to + dt).toFixed(3),
              observation: j.why,
            },
          ],
        };
      });
      return { metric, items: scored };
    });
    if (malformed && metrics.length) {
      const m0 = metrics[0]!;
      if (m0.items[0]) {
        m0.items[0].score = 0.6;
        delete m0.items[0].support;
      }
      m0.items.push({
        item_id: `${m0.metric}-unknown`,
        score: 1,
        support: 'pass',
        evidence: [{ t_start_s: 0, t_end_s: 0, observation: 'an item nobody asked about' }],
      });
      if (m0.items[1])
        m0.items[1].evidence = [{ t_start_s: 0, t_end_s: duration + 5, observation: 'past the end' }];
      if (metrics.length > 1) metrics.pop();
    }
    return { metrics };
  },
};

/**
 * Shot segmentation: {"boundaries_s":[…],"assignments":[{"kf_id","shot"}]} from the emulator's own
 * frame differences. A boundary lies between two consecutive frames whose difference (dHash bits
 * changed / 64 + mean-colour distance) is large and at least three times every other difference
 * within two frames — an isolated jump, so a pan or a slide, whose frames keep changing, stays one
 * shot. Each keyframe goes to the shot
 * of its closest frame, or none when even that frame is far from it.
 */
export const segmentHandler: PromptHandler = {
  kind: 'compass-segment',
  matches: (t) => /"boundaries_s":\[/.test(t),
  answer: ({ text, images }) => {
    const labels = [...text.matchAll(/^Image (\S+):$/gm)].map((m) => m[1]!);
    const frames: Frame[] = [];
    const kfs: { id: string; f: ImageFeatures }[] = [];
    labels.forEach((l, i) => {
      const t = /^t=([\d.]+)s$/.exec(l);
      if (t) frames.push({ t: Number(t[1]), f: images[i]! });
      else if (images[i]) kfs.push({ id: l, f: images[i]! });
    });
    const d = (a: ImageFeatures, b: ImageFeatures) => hamming(a.fingerprint, b.fingerprint) / 64 + dist(a, b);
    const diffs = frames.map((f, i) => (i === 0 ? 0 : d(frames[i - 1]!.f, f.f)));
    const boundaries: number[] = [];
    for (let i = 1; i < frames.length; i++) {
      const around = Math.max(...[i - 2, i - 1, i + 1, i + 2].map((k) => (k >= 1 ? (diffs[k] ?? 0) : 0)));
      if (diffs[i]! > SEGMENT_JUMP && diffs[i]! >= 3 * around)
        boundaries.push(+((frames[i - 1]!.t + frames[i]!.t) / 2).toFixed(3));
    }
    const shotOf = (t: number) => boundaries.filter((b) => b <= t).length;
    const assignments = kfs.map(({ id, f }) => {
      const near = frames.reduce((a, b) => (d(b.f, f) < d(a.f, f) ? b : a), frames[0]!);
      return { kf_id: id, shot: near && d(near.f, f) < SEGMENT_MATCH ? shotOf(near.t) : null };
    });
    return { boundaries_s: boundaries, assignments };
  },
};

/** A frame-to-frame difference above this can be a cut; a keyframe closer than SEGMENT_MATCH is shown. */
const SEGMENT_JUMP = 0.2;
const SEGMENT_MATCH = 0.25;
