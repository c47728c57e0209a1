/** The first page: both leaderboards with interval whiskers, the films and the cases. */

import { embedderNotice } from '../../compass/response/paper-scale.js';
import { OVERALL_GROUPS } from '../../compass/schemas/evaluation.js';
import type { Leaderboard } from '../../compass/schemas/leaderboard.js';
import type { ResponseSummary, SummaryCell } from '../../compass/schemas/response.js';
import { METRICS } from '../../compass/schemas/response.js';
import type { MethodSummary } from '../../hero/results.js';
import { emulatorNote, isEmulatorJudge } from '../../judge/emulator-note.js';
import { tableLines } from '../../report/compass.js';
import { byScore } from '../../report/hero.js';
import { levelEntries } from '../../report/table.js';
import { bootstrap } from '../../stats/bootstrap.js';
import { mean } from '../../stats/mean.js';
import { barChart } from '../chart.js';
import { f3, type Html, html } from '../html.js';
import { casePageName, filmPageName, pageHref } from '../page-names.js';
import type { Site } from '../site.js';
import { type CompassResults, type HeroResults, hasVideo } from '../view-types.js';
import { compassDefinitions } from './case.js';
import { page } from './layout.js';

const GROUP_LABEL: Record<string, string> = {
  keyframe_control: 'KF control',
  keyframe_fidelity: 'KF fidelity',
  temporal_organization: 'temporal org.',
  visual_quality: 'visual quality',
  spatiotemporal_coherence: 'spatiotemporal coh.',
  instruction_adherence: 'instruction adh.',
  av_coordination: 'A/V coordination',
};

/**
 * What the HeroFrame columns mean, one line each, in SPEC §3.2's words: s(F, C) = the images of the
 * chain F was placed above / 6; S_f = mean of s over the method's frames and the film's chains,
 * S = mean of S_f over films; S@k uses frames of rank ≤ k; top-1 rate = share of insertions with
 * s = 1, beat-the-still rate = share of insertions where F was placed above the chain's publicity
 * still, both averaged per film first, like S.
 */
export const HERO_METRIC_LINES: readonly (readonly [string, string])[] = [
  [
    'S',
    "s = (number of images of the film's six-image chain the frame was placed above) / 6; S = mean over films of the mean of s over the method's frames and the film's chains",
  ],
  ['S_f', "a film's score: mean of s over the method's frames and the film's chains"],
  ['S@k', 'S using only the frames of rank ≤ k (S@1: each film’s first frame of the method)'],
  ['top-1', 'share of insertions with s = 1 (placed above all six), averaged per film first, like S'],
  [
    'beat the still',
    "share of insertions where the frame was placed above the chain's publicity still, averaged per film first, like S",
  ],
];

function metricLines(): Html {
  return html`<dl class="metric-defs">${HERO_METRIC_LINES.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

function heroBoard(r: HeroResults): Html {
  const methods = [...r.methods].sort(byScore);
  const rows: MethodSummary[] = [...methods, ...r.official];
  // rows of eval/baselines.jsonl are the release's official ones — unless the emulator read them
  // (the mini set's file), which is no official reader
  const name = (m: MethodSummary) =>
    m.official
      ? `${m.method} (${isEmulatorJudge(m.reader) ? 'baseline file, emulator' : 'official'})`
      : m.method;
  return html`<section class="board" data-results="${r.label}"><h3>${r.label}</h3>
<p class="meta">reader <code>${r.reader}</code> · protocol <code>${r.protocol}</code> · whiskers: 95 % bootstrap interval over films; official rows (from <code>eval/baselines.jsonl</code>) in grey, as published</p>${emulatorNote(r.reader) ? html`<p class="emulator-note"><strong>Note:</strong> ${emulatorNote(r.reader)}.</p>` : ''}
${r.warnings.map((w) => html`<p class="warn">${w}</p>`)}
${barChart(
  rows.map((m) => ({
    label: name(m),
    value: m.S,
    lo: m.ci.S[0],
    hi: m.ci.S[1],
    muted: !!m.official,
    note: m.official ? `official, reader ${m.reader}` : '',
  })),
  { label: `HeroFrame S per method, ${r.label}` },
)}
<table class="scores hero-scores"><thead><tr><th>method</th><th>reader</th><th>S</th><th>95 % CI</th><th>S@1</th><th>S@2</th><th>S@3</th><th>S@4</th><th>S@5</th><th>top-1</th><th>beat the still</th><th>films</th></tr></thead><tbody>
${rows.map(
  (m) =>
    html`<tr class="${m.official ? 'official' : ''}" data-method="${m.method}"><th>${name(m)}</th><td>${m.reader}</td><td>${f3(m.S)}</td><td>${m.official ? '' : `${f3(m.ci.S[0])}–${f3(m.ci.S[1])}`}</td>${[1, 2, 3, 4, 5].map((k) => html`<td>${f3(m.S_at_k[String(k)])}</td>`)}<td>${f3(m.top1_rate)}</td><td>${f3(m.beat_still_rate)}</td><td>${m.films ?? ''}</td></tr>`,
)}
</tbody></table></section>`;
}

/** Per-case means for one model, then a bootstrap over cases. */
function caseBars(
  values: { model: string; case_id: string; v: number | null }[],
  models: string[],
  seed: string,
): { label: string; value: number | null; lo: number | null; hi: number | null }[] {
  return models.map((model) => {
    const byCase = new Map<string, number[]>();
    for (const x of values)
      if (x.model === model && typeof x.v === 'number')
        byCase.set(x.case_id, [...(byCase.get(x.case_id) ?? []), x.v]);
    const perCase = [...byCase.keys()].sort().map((k) => mean(byCase.get(k)!));
    if (!perCase.length) return { label: model, value: null, lo: null, hi: null };
    const b = bootstrap(perCase, mean, { B: 1000, seed: `${seed}/${model}` });
    return { label: model, value: b.estimate, lo: b.ci[0], hi: b.ci[1] };
  });
}

function cellRow(label: string, c: SummaryCell, coverage?: { present: number; expected: number }): Html {
  return html`<tr data-model="${label}"><th>${label}</th><td>${c.n}</td>${coverage ? html`<td class="coverage">${coverage.present}/${coverage.expected}</td>` : ''}${METRICS.map((k) => html`<td>${f3(c.metrics[k])}</td>`)}<td>${f3(c.groups.keyframe_fidelity)}</td><td>${f3(c.groups.temporal_organization)}</td></tr>`;
}

export function responseTables(s: ResponseSummary): Html {
  // ranked as the command line ranks them (compassTable): by the two groups' mean, best first
  const key = (m: string) =>
    (s.models[m]!.all.groups.keyframe_fidelity ?? 0) + (s.models[m]!.all.groups.temporal_organization ?? 0);
  const models = Object.keys(s.models).sort((a, b) => key(b) - key(a) || a.localeCompare(b));
  const head = html`<thead><tr><th>model</th><th>videos</th>${METRICS.map((m) => html`<th>${m}</th>`)}<th>KF fidelity</th><th>temporal org.</th></tr></thead>`;
  const allHead = html`<thead><tr><th>model</th><th>videos</th><th>coverage</th>${METRICS.map((m) => html`<th>${m}</th>`)}<th>KF fidelity</th><th>temporal org.</th></tr></thead>`;
  const factors = [
    ['keyframes', 'by_keyframes'],
    ['structure', 'by_structure'],
    ['prompt mode', 'by_prompt_mode'],
    ['conditioning', 'by_conditioning'],
  ] as const;
  return html`<h4 class="table-title">Keyframe response: the six metrics (compass score)</h4><p class="meta sort-key">sorted by the mean of KF fidelity and temporal org., best first (as <code>compass score</code> prints it)</p><table class="scores compass-scores">${allHead}<tbody>${models.map((m) => cellRow(m, s.models[m]!.all, s.models[m]!.coverage))}</tbody></table>
${factors.map(([label, key]) => {
  const levels = [...new Set(models.flatMap((m) => Object.keys(s.models[m]![key] ?? {})))].sort();
  return html`<details class="factor"><summary>by ${label}</summary>${levels.map(
    (l) =>
      html`<h4>${label} = ${l}</h4><table class="scores">${head}<tbody>${models.flatMap((m) => {
        const c = s.models[m]![key]?.[l];
        return c ? [cellRow(m, c)] : [];
      })}</tbody></table>`,
  )}</details>`;
})}`;
}

/** "± sd" over runs: a dash for a single run (no spread to measure), with the number of runs. */
function sdCell(m: Leaderboard['models'][number]): Html {
  return m.runs > 1
    ? html`<td class="sd">${f3(m.overall_sd)} (${m.runs} runs)</td>`
    : html`<td class="sd">– (1 run)</td>`;
}

/** A/V coordination: "not measured" where it was not judged (no --judge-audio; never 0). */
function avCell(m: Leaderboard['models'][number]): Html {
  const x = m.groups.av_coordination;
  return typeof x === 'number'
    ? html`<td class="av">${f3(x)}</td>`
    : html`<td class="av not-measured" title="not judged: the judge did not take audio input (--judge-audio), or no video had an audio track">not measured</td>`;
}

/** Joint table: the videos without an audio track, scored AV Coordination 0, per model. */
function noAudioList(models: Leaderboard['models']): Html | string {
  const marked = models.filter((m) => m.no_audio_track?.length);
  return marked.length
    ? html`<ul class="no-audio">${marked.map((m) => html`<li data-model="${m.model}"><b>${m.model}</b>: no audio track, AV Coordination 0: ${m.no_audio_track!.join(', ')}</li>`)}</ul>`
    : '';
}

const QUALITY_COLUMNS = ['keyframe_control', ...OVERALL_GROUPS, 'av_coordination'] as const;

/** One table (joint audio-video or video-only): which, over which cases, by which formula, then its rows. */
function qualityTable(
  t: Pick<Leaderboard, 'table' | 'formula' | 'cases' | 'models_without_audio' | 'models' | 'by'>,
  ranked: boolean,
): Html {
  const table = t.table ?? 'video';
  // only the columns that mean something for this table: AV Coordination where Overall uses it
  // (the joint table), the spread where some model ran more than once, flags where any was raised
  const av = table === 'joint';
  const sd = t.models.some((m) => m.runs > 1);
  const flagged = t.models.some((m) => m.flagged.length > 0);
  const groups = QUALITY_COLUMNS.slice(0, -1);
  const head = html`<thead><tr><th>model</th><th>Overall</th>${sd ? html`<th>± sd (runs)</th>` : ''}<th>cases</th><th>coverage</th>${groups.map((g) => html`<th>${GROUP_LABEL[g] ?? g}</th>`)}${av ? html`<th>${GROUP_LABEL.av_coordination ?? 'av_coordination'}</th>` : ''}${flagged ? html`<th>flagged (not measured or incomplete)</th>` : ''}</tr></thead>`;
  const row = (m: Leaderboard['models'][number]) =>
    html`<tr data-model="${m.model}"><th>${m.model}</th><td class="overall">${f3(m.overall)}</td>${sd ? sdCell(m) : ''}<td>${m.cases}</td><td class="coverage">${m.coverage.present}/${m.coverage.expected}</td>${groups.map((g) => html`<td>${f3(m.groups[g] ?? null)}</td>`)}${av ? avCell(m) : ''}${flagged ? html`<td class="flagged">${m.flagged.join(', ')}</td>` : ''}</tr>`;
  const runs = t.models[0]?.runs ?? 1;
  const sortKey = html`<p class="meta sort-key">sorted by Overall, best first${sd ? '' : html` · ${runs} run${runs > 1 ? 's' : ''} (no spread to show)`}</p>`;
  const title = table === 'joint' ? 'Joint audio-video leaderboard' : 'Video-only leaderboard';
  // the lines the command line prints above the table, the marked videos as a list below it
  const lines = tableLines({ ...t, models: [] }, ranked);
  return html`<div class="${`quality-board ${table}`}" data-table="${table}"><h4 class="table-title">${title} (compass evaluate)</h4>${lines.map((l) => html`<p class="meta table-meta">${l}</p>`)}${sortKey}${noAudioList(t.models)}<table class="scores quality-scores">${head}<tbody>${t.models.map(row)}</tbody></table>
${Object.entries(t.by ?? {}).map(
  ([factor, levels]) =>
    html`<details class="factor"><summary>by ${factor.replace('_', ' ')}</summary>${levelEntries(levels).map(
      ([l, rows]) =>
        html`<h4>${factor.replace('_', ' ')} = ${l}</h4><table class="scores">${head}<tbody>${rows.map(row)}</tbody></table>`,
    )}</details>`,
)}</div>`;
}

/** The ranked table, then the other one when there are two. */
function qualityTables(lb: Leaderboard): Html {
  return html`${qualityTable(lb, true)}${lb.other ? qualityTable(lb.other, false) : ''}`;
}

function compassBoard(r: CompassResults): Html {
  const rows = [...r.responses.values()];
  const models = [...new Set(rows.map((x) => x.model))].sort();
  const evals = [...r.evaluations.values()];
  const charts: Html[] = [];
  if (r.leaderboard && evals.length) {
    const lb = r.leaderboard;
    const order = lb.models.map((m) => m.model);
    // the ranked table's Overall: the joint one over its common set, or the video-only one
    const joint = lb.table === 'joint';
    const common = new Set(lb.cases?.ids ?? []);
    const bars = caseBars(
      evals
        .filter((e) => !joint || common.has(e.case_id))
        .map((e) => ({
          model: e.model,
          case_id: e.case_id,
          v: (joint ? e.overall?.joint_av?.score : e.overall?.score) ?? null,
        })),
      order,
      `${r.label}/overall`,
    );
    const name = joint ? 'Overall (joint audio-video)' : 'Overall (video-only)';
    charts.push(
      html`<div><h4>${name}</h4>${barChart(bars, { label: `Compass ${name} per model, ${r.label}` })}</div>`,
    );
  }
  for (const g of ['keyframe_fidelity', 'temporal_organization'] as const) {
    const bars = caseBars(
      rows.map((x) => ({ model: x.model, case_id: x.case_id, v: x.groups?.[g] ?? null })),
      models,
      `${r.label}/${g}`,
    ).sort((a, b) => (b.value ?? -1) - (a.value ?? -1) || a.label.localeCompare(b.label));
    charts.push(
      html`<div><h4>${GROUP_LABEL[g]}</h4>${barChart(bars, { label: `Compass ${GROUP_LABEL[g]} per model, ${r.label}`, width: 520 })}</div>`,
    );
  }
  // every video that is not scored, per model, as the command line lists them
  const notScored = new Map<string, string[]>();
  for (const x of rows)
    if ((x.status ?? 'scored') !== 'scored')
      notScored.set(x.model, [
        ...(notScored.get(x.model) ?? []),
        `${x.case_id}__${x.prompt_mode} (${x.status})`,
      ]);
  const segmenter = r.leaderboard?.segmenter ?? r.summary?.segmenter;
  // not the paper's embedder: said beside the numbers, as on the command line (issue 54 item 1)
  const embedder = r.leaderboard?.embedder ?? r.summary?.embedder;
  const paperNote = embedder === undefined ? undefined : embedderNotice(embedder);
  return html`<section class="board" data-results="${r.label}"><h3>${r.label}</h3>
<p class="meta">${segmenter ? html`segmenter <code class="segmenter">${segmenter}</code> · ` : ''}${r.summary ? html`embedder <code>${r.summary.embedder}</code>, γ = ${r.summary.gamma}` : ''}${r.leaderboard ? html` · judge <code>${r.leaderboard.judge}</code>, ${r.leaderboard.runs} run(s)` : html` · keyframe response only (no <code>leaderboard.json</code>: run <code>npx kfbench compass evaluate</code> for video quality)`} · whiskers: 95 % bootstrap interval over cases</p>${emulatorNote(r.leaderboard?.judge) ? html`<p class="emulator-note"><strong>Note:</strong> ${emulatorNote(r.leaderboard?.judge)}.</p>` : ''}${paperNote ? html`<p class="paper-note"><strong>Not on the paper's scale:</strong> ${paperNote}.</p>` : ''}
<div class="charts">${charts}</div>
${notScored.size ? html`<ul class="not-scored">${[...notScored].sort(([a], [b]) => a.localeCompare(b)).map(([m, vs]) => html`<li data-model="${m}"><b>${m}</b>: ${vs.length} video(s) not scored (0 on every metric): ${vs.join(', ')}</li>`)}</ul>` : ''}
${r.leaderboard ? qualityTables(r.leaderboard) : ''}
${r.summary ? responseTables(r.summary) : ''}
</section>`;
}

export function homePage(site: Site): string {
  const { hero, compass, problems } = site.data;
  const films = hero ? [...hero.chains.keys()].sort() : [];
  const body = html`<h1>kfbench results</h1>
${
  hero
    ? html`<section id="hero"><h2>HeroFrame leaderboard</h2>
<p class="meta">dataset <code>${hero.data}</code></p>
${metricLines()}
${hero.results.length ? hero.results.map(heroBoard) : html`<p class="empty">No HeroFrame results folder was given (<code>--results</code>).</p>`}
<h2>Films</h2><table class="films"><thead><tr><th>film</th><th>year</th><th>chains</th><th>rubric rules</th><th>movie id</th></tr></thead><tbody>
${films.map((id) => {
  const m = hero.movies.get(id);
  return html`<tr><td><a href="${pageHref(filmPageName(id))}">${m?.title ?? id}</a></td><td>${m?.year ?? ''}</td><td>${hero.chains.get(id)!.chains.length}</td><td>${hero.rubrics.get(id)?.criteria.length ?? 0}</td><td><code>${id}</code></td></tr>`;
})}</tbody></table></section>`
    : ''
}
${
  compass
    ? html`<section id="compass"><h2>Compass leaderboard</h2>
<p class="meta">cases <code>${compass.casesFile}</code></p>
${compassDefinitions()}
${compass.results.length ? compass.results.map(compassBoard) : html`<p class="empty">No Compass results folder was given (<code>--compass-results</code>).</p>`}
<h2>Cases</h2><table class="cases"><thead><tr><th>case</th><th>structure</th><th>keyframes</th><th>domain</th>${compass.models.map((m) => html`<th>${m}</th>`)}</tr></thead><tbody>
${compass.cases.map(
  (c) =>
    html`<tr><td><a href="${pageHref(casePageName(c.case_id))}">${c.case_id}</a></td><td>${c.structure}</td><td>${c.keyframes.length}</td><td>${c.domain}</td>${compass.models.map(
      (m) =>
        html`<td>${(['minimal', 'segment_specific'] as const).map((mode) =>
          hasVideo(compass, c.case_id, m, mode)
            ? html`<a class="mode" href="${pageHref(casePageName(c.case_id, mode, m))}">${mode === 'minimal' ? 'min' : 'seg'}</a> `
            : '',
        )}</td>`,
    )}</tr>`,
)}</tbody></table></section>`
    : ''
}`;
  return page({ title: 'Leaderboards', problems, body });
}
