/** Pure renderers of Compass keyframe-response results. */

import { embedderNotice } from '../compass/response/paper-scale.js';
import type { SensitivityResult } from '../compass/response/sensitivity.js';
import type { Leaderboard, ModelOverall } from '../compass/schemas/leaderboard.js';
import type { ResponseSummary } from '../compass/schemas/response.js';
import { METRICS } from '../compass/schemas/response.js';
import { emulatorNote } from '../judge/emulator-note.js';
import { breakdowns, metricsByModeLines, metricsByModeMarkdown } from './compass-tables.js';
import { csvCell, esc, mdText } from './escape.js';
import { levelEntries, textTable } from './table.js';

const f3 = (x: number) => x.toFixed(3);

/** The leaderboard: one row per model, sorted by the two groups' mean (best first). */
export function compassTable(s: ResponseSummary): string {
  const head = ['model', 'videos', 'coverage', ...METRICS, 'KF fidelity', 'temporal org.'];
  const models = Object.entries(s.models).sort(
    ([a, x], [b, y]) =>
      y.all.groups.keyframe_fidelity +
        y.all.groups.temporal_organization -
        (x.all.groups.keyframe_fidelity + x.all.groups.temporal_organization) || a.localeCompare(b),
  );
  const body = models.map(([m, v]) => [
    m,
    String(v.all.n),
    v.coverage ? `${v.coverage.present}/${v.coverage.expected}` : '',
    ...METRICS.map((k) => f3(v.all.metrics[k])),
    f3(v.all.groups.keyframe_fidelity),
    f3(v.all.groups.temporal_organization),
  ]);
  const rule =
    s.missing === 'skip'
      ? 'only the videos every model has (--missing skip)'
      : 'a missing or undecodable video scores 0';
  const seg = s.segmenter ? `, segmenter ${s.segmenter}` : '';
  return [
    `embedder ${s.embedder}, γ = ${s.gamma}${seg}; ${rule}`,
    ...noticeLines(s.embedder),
    ...textTable(head, body),
  ].join('\n');
}

/** The embedder's notice when it is not the paper's (compass/paper-scale.ts), as lines. */
function noticeLines(embedder: string): string[] {
  const n = embedderNotice(embedder);
  return n ? [n] : [];
}

export function sensitivityLines(r: SensitivityResult): string[] {
  const at = (x: { psnrLow: number; ssimLow: number; fusion: number }) =>
    `PSNR low ${x.psnrLow} dB, SSIM low ${x.ssimLow}, fusion ${x.fusion}`;
  return [
    `${r.outputs} outputs, ${r.keyframes} keyframes, ${r.models.length} models, ${r.settings.length} settings`,
    `default (${at(r.default)}): mean KFS ${f3(r.default.mean_kfs)}`,
    `largest change of mean KFS: ${r.max_delta_mean_kfs.toFixed(4)} (at ${at(r.max_delta_at)})`,
    r.min_spearman_rho_videos === null || r.min_rho_videos_at === null
      ? 'Spearman ρ of the per-video scores: needs at least two videos with differing scores'
      : `lowest Spearman ρ of the per-video scores vs the default (as published): ${r.min_spearman_rho_videos.toFixed(4)} over ${r.outputs} outputs (at ${at(r.min_rho_videos_at)})`,
    r.min_spearman_rho === null || r.min_rho_at === null
      ? 'Spearman ρ of the model ranking: needs at least two models'
      : `lowest Spearman ρ of the model ranking vs the default: ${r.min_spearman_rho.toFixed(4)} (at ${at(r.min_rho_at)})`,
  ];
}

const GROUP_COLUMNS = [
  ['keyframe_control', 'KF control'],
  ['keyframe_fidelity', 'KF fid.'],
  ['temporal_organization', 'temp. org.'],
  ['visual_quality', 'visual'],
  ['spatiotemporal_coherence', 'coherence'],
  ['instruction_adherence', 'adherence'],
  ['av_coordination', 'AV'],
] as const;

const fx = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const sdOf = (sd: number | null | undefined) => (typeof sd === 'number' ? ` ± ${sd.toFixed(3)}` : '');
const overallCell = (m: ModelOverall) =>
  m.overall === null
    ? '—'
    : m.runs > 1
      ? `${m.overall.toFixed(3)} ± ${m.overall_sd.toFixed(3)}`
      : m.overall.toFixed(3);

/** The group columns of a table: the video-only one shows no AV column (no audio metric counts there). */
const columnsOf = (table: Leaderboard['table']) =>
  table === 'joint' ? GROUP_COLUMNS : GROUP_COLUMNS.filter(([k]) => k !== 'av_coordination');

function rowsOf(models: readonly ModelOverall[], table: Leaderboard['table']): string[][] {
  return models.map((m) => [
    m.model,
    overallCell(m),
    // each group ± its standard deviation over runs (Table 7) when there are several
    ...columnsOf(table).map(([k]) => fx(m.groups[k] ?? null) + sdOf(m.groups_sd?.[k])),
    String(m.cases),
    m.coverage ? `${m.coverage.present}/${m.coverage.expected}` : '',
    m.flagged.join(' '),
  ]);
}

const headOf = (table: Leaderboard['table']) => [
  'model',
  'Overall',
  ...columnsOf(table).map(([, h]) => h),
  'cases',
  'coverage',
  'flagged (not measured or incomplete)',
];

type Table = Pick<Leaderboard, 'table' | 'formula' | 'cases' | 'models_without_audio' | 'models'>;

const TABLE_NAME = {
  joint: 'the joint audio-video leaderboard',
  video: 'the video-only leaderboard',
} as const;

/** Which table, over which cases (count), by which formula (seed §4.2, Table 3). */
export function tableLines(t: Table, ranked = true): string[] {
  const table = t.table ?? 'video';
  const cases =
    t.cases === undefined
      ? ''
      : table === 'joint'
        ? `, over ${t.cases.count} cases (the common set every compared model answered, listed in leaderboard.json)`
        : `, over ${t.cases.count} cases (all evaluated)`;
  return [
    `${ranked ? 'ranked: ' : ''}${TABLE_NAME[table]}${cases}`,
    `Overall: ${t.formula ?? 'mean(Keyframe Fidelity, Temporal Organization, Visual Quality, Spatiotemporal Coherence, Instruction Adherence) (a file written before the two tables)'}`,
    ...(t.models_without_audio?.length
      ? [`not on this table (no video with an audio track): ${t.models_without_audio.join(', ')}`]
      : []),
    ...noAudioLines(t.models),
  ];
}

/** Joint table: per model, the videos without an audio track that scored AV Coordination 0. */
function noAudioLines(models: readonly ModelOverall[]): string[] {
  return models
    .filter((m) => m.no_audio_track?.length)
    .map((m) => `${m.model}: no audio track, AV Coordination 0: ${m.no_audio_track!.join(', ')}`);
}

const missingRule = (lb: Leaderboard) =>
  lb.missing === 'skip'
    ? 'only the videos every model has (--missing skip)'
    : 'a missing or undecodable video scores 0';

/** One line per model some of whose videos were judged below the published 8 fps (capped or not). */
function belowRateLines(models: readonly ModelOverall[]): string[] {
  return models
    .filter((m) => m.below_rate?.length)
    .map((m) => `${m.model}: judged below the published 8 fps: ${m.below_rate.join(', ')}`);
}

/** How many checklists were kept with an item count outside the published preference, per metric. */
function checklistSizeLines(lb: Leaderboard): string[] {
  const o = lb.checklists_outside_preferred_size;
  if (!o || !Object.keys(o).length) return [];
  return [
    `checklists outside the preferred size (kept, flagged): ${Object.entries(o)
      .map(([m, n]) => `${m} ${n}`)
      .join(', ')}`,
  ];
}

/** The judged items the parser dropped (and kept under --item-rule snap), by reason. */
function itemLines(lb: Leaderboard): string[] {
  const say = (o: Record<string, number> | undefined) =>
    Object.entries(o ?? {})
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  const d = Object.values(lb.dropped_items ?? {}).reduce((a, b) => a + b, 0);
  return [
    ...(lb.dropped_items
      ? [
          `judged items dropped (left out of their metric's mean): ${d}${d ? ` (${say(lb.dropped_items)})` : ''}`,
        ]
      : []),
    ...(lb.kept_by_rule ? [`kept by --item-rule snap: ${say(lb.kept_by_rule)}`] : []),
  ];
}

/** The quality metrics the judge left unresolved (none for a file written before they were counted). */
function unresolvedLines(lb: Leaderboard): string[] {
  const u = lb.unresolved;
  if (!u) return itemLines(lb);
  return [
    ...itemLines(lb),
    `unresolved: ${u.unresolved} of ${u.answers} quality metrics judged${u.share === null ? '' : ` (${(100 * u.share).toFixed(1)} %)`}, left out of their group's mean`,
  ];
}

/**
 * The Compass leaderboard (both axes) on the terminal: the ranked table, overall then by each
 * factor, then the other table overall; `factors: false` leaves out the tables by factor level (a
 * run's closing lines).
 */
export function leaderboardText(lb: Leaderboard, o: { factors?: boolean } = {}): string {
  const out = [
    `judge ${lb.judge}, embedder ${lb.embedder}${lb.segmenter ? `, segmenter ${lb.segmenter}` : ''}, ${lb.runs} run${lb.runs > 1 ? 's (mean ± sd)' : ''}; ${missingRule(lb)}`,
    ...noticeLines(lb.embedder),
    ...(emulatorNote(lb.judge) ? [`note: ${emulatorNote(lb.judge)}`] : []),
    ...tableLines(lb),
    ...textTable(headOf(lb.table), rowsOf(lb.models, lb.table)),
    ...belowRateLines(lb.models),
    ...checklistSizeLines(lb),
    ...unresolvedLines(lb),
  ];
  for (const [f, levels] of o.factors === false ? [] : breakdowns(lb))
    for (const [level, models] of levelEntries(levels))
      out.push('', `${f} = ${level}`, ...textTable(headOf(lb.table), rowsOf(models, lb.table)));
  if (o.factors !== false) out.push(...metricsByModeLines(lb));
  if (lb.other)
    out.push(
      '',
      ...tableLines(lb.other, false),
      ...textTable(headOf(lb.other.table), rowsOf(lb.other.models, lb.other.table)),
      `(compass report --rank-by ${lb.other.table} ranks by it)`,
    );
  return out.join('\n');
}

export function leaderboardCsv(lb: Leaderboard): string {
  const head = [
    'table',
    'factor',
    'level',
    'model',
    'overall',
    'overall_sd',
    'runs',
    'cases',
    'present',
    'expected',
    ...GROUP_COLUMNS.map(([k]) => k),
    'flagged',
    'no_audio_track',
  ];
  const line = (t: string, f: string, l: string, m: ModelOverall) =>
    [
      t,
      f,
      l,
      m.model,
      m.overall,
      m.overall_sd,
      m.runs,
      m.cases,
      m.coverage?.present ?? '',
      m.coverage?.expected ?? '',
      ...GROUP_COLUMNS.map(([k]) => m.groups[k] ?? ''),
      m.flagged.join(' '),
      (m.no_audio_track ?? []).join(' '),
    ]
      .map(csvCell)
      .join(',');
  const tableRows = (t: Pick<Leaderboard, 'table' | 'models' | 'by'>) => {
    const name = t.table ?? 'video';
    return [
      ...t.models.map((m) => line(name, 'all', '', m)),
      ...Object.entries(t.by).flatMap(([f, levels]) =>
        levelEntries(levels).flatMap(([l, ms]) => ms.map((m) => line(name, f, l, m))),
      ),
    ];
  };
  // the ranked table first, then the other; the table column says which is which
  const rows = [...tableRows(lb), ...(lb.other ? tableRows(lb.other) : [])];
  return `${[head.join(','), ...rows].join('\n')}\n`;
}

export function leaderboardMarkdown(lb: Leaderboard): string {
  const table = (models: readonly ModelOverall[], t: Leaderboard['table'] = lb.table) => [
    `| ${headOf(t).join(' | ')} |`,
    `|${headOf(t)
      .map(() => '---')
      .join('|')}|`,
    ...rowsOf(models, t).map((r) => `| ${r.map(mdText).join(' | ')} |`),
  ];
  const out = [
    `# Compass leaderboard`,
    '',
    `Judge ${mdText(lb.judge)}, embedder ${mdText(lb.embedder)}${lb.segmenter ? `, segmenter ${mdText(lb.segmenter)}` : ''}, ${lb.runs} run(s); ${mdText(missingRule(lb))}.`,
    '',
    ...noticeLines(lb.embedder).flatMap((l) => [`**${mdText(l)}.**`, '']),
    ...(emulatorNote(lb.judge) ? [`**Note:** ${mdText(emulatorNote(lb.judge))}.`, ''] : []),
    ...tableLines(lb).flatMap((l) => [`${mdText(l)}.`, '']),
    ...table(lb.models),
    ...[...belowRateLines(lb.models), ...checklistSizeLines(lb), ...unresolvedLines(lb)].flatMap((l) => [
      '',
      mdText(l),
    ]),
  ];
  for (const [f, levels] of breakdowns(lb))
    for (const [level, models] of levelEntries(levels))
      out.push('', `## ${mdText(f)} = ${mdText(level)}`, '', ...table(models));
  out.push(...metricsByModeMarkdown(lb));
  if (lb.other)
    out.push(
      '',
      `## ${mdText(TABLE_NAME[lb.other.table])}`,
      '',
      ...tableLines(lb.other, false).flatMap((l) => [`${mdText(l)}.`, '']),
      ...table(lb.other.models, lb.other.table),
    );
  return `${out.join('\n')}\n`;
}

/** A self-contained page: the overall table and a bar per model (Overall, with ± sd whiskers). */
export function leaderboardHtml(lb: Leaderboard): string {
  const W = 560;
  const bars = lb.models
    .map((m, i) => {
      const y = 10 + i * 28;
      const w = Math.max(0, (m.overall ?? 0) * (W - 180));
      const sd = m.overall_sd * (W - 180);
      return `<text x="0" y="${y + 14}">${esc(m.model)}</text><rect x="140" y="${y}" width="${w.toFixed(1)}" height="18" fill="#4a7ab5"/>${
        m.runs > 1
          ? `<line x1="${(140 + w - sd).toFixed(1)}" x2="${(140 + w + sd).toFixed(1)}" y1="${y + 9}" y2="${y + 9}" stroke="#000"/>`
          : ''
      }<text x="${(146 + w + sd).toFixed(1)}" y="${y + 14}">${esc(overallCell(m))}</text>`;
    })
    .join('');
  const table = (models: readonly ModelOverall[], t: Leaderboard['table'] = lb.table) =>
    `<table><tr>${headOf(t)
      .map((h) => `<th>${esc(h)}</th>`)
      .join('')}</tr>${rowsOf(models, t)
      .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
      .join('')}</table>`;
  const sections = Object.entries(lb.by)
    .flatMap(([f, levels]) =>
      levelEntries(levels).map(([l, ms]) => `<h2>${esc(f)} = ${esc(l)}</h2>${table(ms)}`),
    )
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Compass leaderboard</title><style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}</style></head><body><h1>Compass leaderboard</h1><p>Judge ${esc(lb.judge)}, embedder ${esc(lb.embedder)}${lb.segmenter ? `, segmenter ${esc(lb.segmenter)}` : ''}, ${lb.runs} run(s); ${esc(missingRule(lb))}.</p>${emulatorNote(lb.judge) ? `<p class="emulator-note"><strong>Note:</strong> ${esc(emulatorNote(lb.judge))}.</p>` : ''}${noticeLines(
    lb.embedder,
  )
    .map((l) => `<p class="notice"><b>${esc(l)}.</b></p>`)
    .join('')}${tableLines(lb)
    .map((l) => `<p>${esc(l)}.</p>`)
    .join(
      '',
    )}<svg width="${W}" height="${20 + lb.models.length * 28}" font-size="12">${bars}</svg>${table(lb.models)}${sections}${
    lb.other
      ? `<h2>${esc(TABLE_NAME[lb.other.table])}</h2>${tableLines(lb.other, false)
          .map((l) => `<p>${esc(l)}.</p>`)
          .join('')}${table(lb.other.models, lb.other.table)}`
      : ''
  }</body></html>\n`;
}
