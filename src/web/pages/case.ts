/**
 * A Compass case: its keyframes as a strip above the video's timeline, shots as bands, where each
 * keyframe was found; per keyframe the best-matching frame, its time, cosine, PSNR/SSIM and the six
 * scores; the judge's checklist items with evidence timestamps. Every time is a button that seeks
 * the video (assets/web/viewer.js).
 */
import { relative, sep } from 'node:path';
import { type LoadedCase, PROMPT_MODES, type PromptMode, videoPath } from '../../compass/cases/cases.js';
import { QUALITY_METRICS } from '../../compass/quality/metrics.js';
import type { QualityMetricReport } from '../../compass/schemas/quality.js';
import type { ResponseRow } from '../../compass/schemas/response.js';
import { METRICS } from '../../compass/schemas/response.js';
import { f3, type Html, html } from '../html.js';
import { casePageName, pageHref } from '../page-names.js';
import type { Site, VideoSource } from '../site.js';
import { LABEL_GAP_PX, LABEL_PX, stripLayout } from '../strip-lanes.js';
import { type CompassResults, type CompassView, checklistKey, hasVideo, videoKey } from '../view-types.js';
import { page } from './layout.js';

/**
 * What the Compass columns mean, one line each, in SPEC §3.2's words. The six names follow seed 001
 * (§1, p. 2): "Keyframe response covers presence, fidelity, ordering, timing, persistence, and
 * uniqueness"; the failures each catches are the seed's "omission, inaccurate reproduction,
 * mistiming, reordering" (§1). docs/viewer.md lists the same lines.
 */
const COMPASS_METRIC_LINES: readonly (readonly [string, string])[] = [
  [
    'f*',
    "f*(k): the video frame most like keyframe k in pixels, inside the run of frames whose cosine to k is ≥ γ (column 'f* at': its time)",
  ],
  [
    't(k)',
    "the time keyframe k is placed at: the frame of the hold around f* (frames matching k as well as f* does) nearest its target, f*'s own without one; JSON t_best_s",
  ],
  [
    'S_f',
    'not a Compass score: HeroFrame’s per-film score (mean of s over a method’s frames and the film’s chains)',
  ],
  ['presence', 'hit rate: keyframes matched (best cosine ≥ γ) / N — catches omission'],
  [
    'fidelity',
    'KFS: ½·(pixel score from PSNR and SSIM + cosine) per matched keyframe, 0 if unmatched, mean over all N — catches inaccurate reproduction',
  ],
  ['ordering', 'longest strictly increasing run of t(k) in the prescribed order / N — catches reordering'],
  [
    'localization',
    'timing: one-take 1 − |t(k) − target| / τ (τ = half the gap to the nearest target); multi-shot 1 in the intended shot and position, 0.5 in the right shot — catches mistiming',
  ],
  ['persistence', 'min(1, d / 0.5 s), d = how long the frames around f* stay ≥ γ'],
  ['uniqueness', '1 / (separate runs where k matches), halved when its run overlaps another keyframe’s'],
];

/** The Compass definitions as a one-line-each list (same look as the HeroFrame board's). */
export function compassDefinitions(): Html {
  return html`<dl class="metric-defs compass-defs">${COMPASS_METRIC_LINES.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

const pct = (t: number, d: number) => `${((100 * Math.max(0, Math.min(d, t))) / d).toFixed(3)}%`;
const sec = (t: number | null | undefined) => (typeof t === 'number' ? `${t.toFixed(2)} s` : '—');

function seek(t: number | null | undefined, label?: string): Html {
  return typeof t === 'number'
    ? html`<button type="button" class="seek" data-seek="${t.toFixed(3)}" title="${`seek the video to ${t.toFixed(2)} s`}">${label ?? sec(t)}</button>`
    : html`—`;
}

function keyframeUrl(site: Site, view: CompassView, image: string): string | undefined {
  const rel = relative(view.casesDir, image).split(sep).join('/');
  return site.roots.resolve('keyframes', rel) ? site.file('keyframes', rel) : undefined;
}

function kfImg(site: Site, view: CompassView, c: LoadedCase, k: number): Html {
  const url = keyframeUrl(site, view, c.keyframes[k]!.image);
  return url
    ? html`<img src="${url}" alt="${`keyframe ${c.keyframes[k]!.kf_id}`}">`
    : html`<span class="empty">image outside the cases folder</span>`;
}

function timeline(site: Site, view: CompassView, c: LoadedCase, row: ResponseRow | undefined): Html {
  const D = Math.max(c.duration_s, ...(row?.shots.map((s) => s.end_s) ?? []));
  const n = c.keyframes.length;
  const at = c.keyframes.map((kf, k) =>
    kf.t_target_s !== undefined ? Math.max(0, Math.min(D, kf.t_target_s)) / D : (k + 0.5) / n,
  );
  // labels never overlap: a minimum width, then lanes; narrower windows scroll strip and timeline together
  const strip = stripLayout(at);
  return html`<div class="tl-scroll scroll-x"><div class="tl-wrap" data-duration="${D}" data-lanes="${strip.laneCount}" style="${`min-width:${strip.minWidthPx + LABEL_PX + LABEL_GAP_PX}px`}">
<ol class="kf-strip">${c.keyframes.map((kf, k) => {
    const r = row?.keyframes[k];
    return html`<li class="kf ${r ? (r.matched ? 'matched' : 'missing') : ''}" data-kf="${kf.kf_id}" style="${`grid-row:${strip.lanes[k]! + 1};margin-left:calc(${(100 * at[k]!).toFixed(3)}% - ${LABEL_PX / 2}px)`}">${kfImg(site, view, c, k)}<div class="cap"><span class="kf-id">k${k + 1} ${kf.kf_id}</span>${kf.t_target_s !== undefined ? ` · target ${kf.t_target_s.toFixed(3)} s` : kf.shot_index !== undefined ? ` · shot ${kf.shot_index}` : ''}</div>${r ? (r.matched ? seek(r.t_best_s, `found ${sec(r.t_best_s)}`) : html`<span class="missing">not found</span>`) : ''}</li>`;
  })}</ol>
<div class="timeline" id="timeline" title="click to seek">
${(row?.shots ?? []).map((s, i) => html`<div class="shot s${i % 2}" style="${`left:${pct(s.start_s, D)};width:${pct(s.end_s - s.start_s, D)}`}" title="${`shot ${i}: ${s.start_s.toFixed(2)}–${s.end_s.toFixed(2)} s${s.keyframes.length ? `, keyframes ${s.keyframes.join(', ')}` : ''}`}"><span>shot ${i}</span></div>`)}
${c.keyframes.map((kf, k) => (kf.t_target_s !== undefined ? html`<div class="target" style="${`left:${pct(kf.t_target_s, D)}`}" title="${`k${k + 1} target ${kf.t_target_s} s`}"></div>` : ''))}
${(row?.keyframes ?? []).map((r, k) => (r.matched && r.t_best_s !== null ? html`<button type="button" class="marker" data-seek="${r.t_best_s.toFixed(3)}" style="${`left:${pct(r.t_best_s, D)}`}" title="${`k${k + 1} ${r.kf_id} found at ${r.t_best_s.toFixed(2)} s`}">k${k + 1}</button>` : ''))}
<div class="playhead" id="playhead"></div>
</div><div class="axis"><span>0 s</span><span>${D.toFixed(1)} s</span></div></div></div>`;
}

function keyframeTable(
  site: Site,
  view: CompassView,
  c: LoadedCase,
  row: ResponseRow,
  video: string | undefined,
): Html {
  return html`<table class="scores kf-table"><thead><tr><th>keyframe</th><th>image</th><th>best-matching frame</th><th>t(k)</th><th>f* at</th><th>cos</th><th>PSNR</th><th>SSIM</th>${METRICS.map((m) => html`<th>${m}</th>`)}</tr></thead><tbody>
${row.keyframes.map(
  (
    r,
    k,
  ) => html`<tr class="${r.matched ? 'matched' : 'missing'}" data-kf="${r.kf_id}"><th>k${k + 1} ${r.kf_id}${r.matched ? '' : html`<br><span class="missing">not found</span>`}</th><td>${kfImg(site, view, c, k)}</td>
<td>${video ? html`<img src="${site.frame(video, r.t_peak_s)}" alt="${`frame at ${r.t_peak_s.toFixed(2)} s`}" loading="lazy">` : ''}</td>
<td>${seek(r.t_best_s)}</td><td>${seek(r.t_peak_s)}</td><td>${f3(r.cos)}</td><td>${r.psnr_db === null ? '—' : `${r.psnr_db.toFixed(1)} dB`}</td><td>${f3(r.ssim)}</td>
${METRICS.map((m) => html`<td class="${r.scores[m] < 0.5 ? 'low' : ''}">${f3(r.scores[m])}</td>`)}</tr>`,
)}
<tr class="case-row"><th colspan="8">case</th>${METRICS.map((m) => html`<td>${f3(row.metrics[m])}</td>`)}</tr></tbody></table>`;
}

/** Two folders hold the same keyframe response for a video (e.g. compass score's and compass evaluate's). */
function sameResponse(a: ResponseRow, b: ResponseRow): boolean {
  return (
    JSON.stringify([a.keyframes, a.metrics, a.gamma]) === JSON.stringify([b.keyframes, b.metrics, b.gamma])
  );
}

function checklistSection(r: CompassResults, c: LoadedCase, mode: PromptMode, model: string): Html {
  const ev = r.evaluations.get(videoKey(c.case_id, model, mode));
  if (!ev)
    return html`<p class="empty">No video-quality evaluation in ${r.label} (run <code>npx kfbench compass evaluate</code>).</p>`;
  return html`<div class="checklist">${QUALITY_METRICS.map((m) => {
    const q = ev.quality.metrics[m] as QualityMetricReport | undefined;
    if (!q) return '';
    const list = r.checklists.get(checklistKey(c.case_id, mode, m));
    const text = new Map((list?.items ?? []).map((i) => [i.item_id, i.question]));
    return html`<details class="metric" data-metric="${m}" open><summary><b>${m}</b> ${q.status}${q.score !== null ? html` · ${f3(q.score)}` : ''}${q.reason ? html` <span class="meta">${q.reason}</span>` : ''}</summary>
${
  q.items?.length
    ? html`<ul class="items">${q.items.map(
        (it) =>
          html`<li data-item="${it.item_id}"><code>${it.item_id}</code> <span class="question">${text.get(it.item_id) ?? ''}</span> — score ${it.score}<ul>${it.evidence.map((e) => html`<li>${seek(e.t_start_s, `${e.t_start_s.toFixed(2)}–${e.t_end_s.toFixed(2)} s`)} ${e.observation}</li>`)}</ul></li>`,
      )}</ul>`
    : ''
}
${
  q.dropped && Object.keys(q.dropped).length
    ? html`<p class="meta">dropped items: ${Object.entries(q.dropped)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}</p>`
    : ''
}</details>`;
  })}</div>`;
}

function videoBlock(v: VideoSource | undefined, model: string): Html {
  if (!v) return html`<p class="empty">No video file for ${model} (give <code>--videos</code>).</p>`;
  return html`<video id="video" controls preload="auto" muted src="${v.url}" type="${v.type}"></video>
<p class="meta">${v.proxy ? `WebM proxy made with ffmpeg (source codec ${v.codec})` : `source file (${v.codec})`} · <span id="seek-status">at 0.00 s</span></p>`;
}

export async function casePage(
  site: Site,
  c: LoadedCase,
  sel: { mode: PromptMode; model: string } | undefined,
): Promise<string> {
  const view = site.data.compass as CompassView;
  const title = sel ? `${c.case_id} · ${sel.model} · ${sel.mode}` : c.case_id;
  const links = html`<nav class="choose">${view.models.map(
    (m) =>
      html`<span class="model">${m}: ${PROMPT_MODES.filter((mode) => hasVideo(view, c.case_id, m, mode)).map(
        (mode) =>
          html`<a class="${sel?.model === m && sel.mode === mode ? 'current' : ''}" href="${pageHref(casePageName(c.case_id, mode, m))}">${mode}</a> `,
      )}</span>`,
  )}</nav>`;
  let main: Html;
  if (!sel)
    main = html`${timeline(site, view, c, undefined)}<p class="meta">Choose a model and prompt mode above.</p>`;
  else {
    const key = videoKey(c.case_id, sel.model, sel.mode);
    const withRow = view.results.filter((r) => r.responses.has(key));
    const v = await site.video(sel.model, c.case_id, sel.mode);
    const abs = v && view.videos ? videoPath(view.videos, sel.model, c.case_id, sel.mode) : undefined;
    main = html`<div class="player">${videoBlock(v, sel.model)}</div>
${withRow.length ? timeline(site, view, c, withRow[0]!.responses.get(key)) : timeline(site, view, c, undefined)}
${withRow.map((r) => {
  const row = r.responses.get(key)!;
  // "no evaluation, run compass evaluate" only when no folder shown holds one for this video
  const evaluated = withRow.some((x) => x.evaluations.has(key));
  // one per-keyframe table for the same response: a second folder with the same row says so instead
  const same = withRow.findIndex((x) => sameResponse(x.responses.get(key)!, row));
  const first = withRow[same]!;
  return html`<section class="result" data-results="${r.label}"><h2>Keyframe response <span class="meta">${r.label} · γ ${row.gamma} · KF fidelity ${f3(row.groups.keyframe_fidelity)} · temporal org. ${f3(row.groups.temporal_organization)}</span></h2>
${first === r ? keyframeTable(site, view, c, row, abs) : html`<p class="meta same-response">per-keyframe table: the same as in ${first.label} above</p>`}
${r.evaluations.has(key) || !evaluated ? html`<h2>Video quality checklist</h2>${checklistSection(r, c, sel.mode, sel.model)}` : ''}</section>`;
})}`;
  }
  const body = html`<h1>${title}</h1>
<p class="meta">${c.domain} · ${c.structure.replace('_', '-')} · ${c.keyframes.length} keyframes · ${c.duration_s} s · ${c.conditioning.replace('_', ' ')}</p>
<p class="story">${c.story_summary}</p>
${sel ? html`<details class="prompt"><summary>${sel.mode} prompt</summary><p>${c.prompts[sel.mode]}</p></details>` : ''}
${links}${main}
${sel ? html`<h2>Definitions</h2>${compassDefinitions()}` : ''}`;
  return page({
    title,
    problems: site.data.problems.filter((p) => p.area === 'compass'),
    body,
    crumbs: html` › <span>${title}</span>`,
  });
}
