/** Pure renderers of a HeroFrame evaluation: terminal table, CSV, Markdown, self-contained HTML. */
import { randomToHumanLines } from '../hero/random-to-human.js';
import type { FilmScore, MethodSummary, PairedDifference } from '../hero/results.js';
import { emulatorNote } from '../judge/emulator-note.js';
import type { UnresolvedShare } from '../judge/unresolved.js';
import { csvCell, esc, mdText } from './escape.js';
import { textTable } from './table.js';

export interface HeroReportData {
  reader: string;
  protocol: string;
  both_orders?: boolean;
  disagreement_rule?: string | null;
  questions_per_insertion?: number;
  disagreement?: { checks: number; disagreed: number; rate: number | null };
  unresolved?: UnresolvedShare | undefined;
  methods: MethodSummary[];
  official: MethodSummary[];
  warnings: string[];
  paired: PairedDifference[];
}

const f3 = (x: number | null | undefined) =>
  typeof x === 'number' && Number.isFinite(x) ? x.toFixed(3) : '—';

/** Best S first; a method without an S (nothing scored) last. */
export const byScore = (a: MethodSummary, b: MethodSummary) =>
  (b.S ?? -1) - (a.S ?? -1) || a.method.localeCompare(b.method);

/** The protocol, its questions per insertion and its disagreement rate, as one phrase. */
export function protocolPhrase(d: HeroReportData): string {
  const name = `${d.protocol}${d.both_orders ? ` in both orders (disagreement scored as ${d.disagreement_rule ?? 'error'})` : ''}`;
  const q =
    d.questions_per_insertion === undefined
      ? ''
      : `, ${d.questions_per_insertion.toFixed(2)} questions per insertion`;
  const dis = d.disagreement;
  const rate = !dis
    ? ''
    : dis.rate === null
      ? ', disagreement not measured (one question per insertion; --both-orders measures it)'
      : `, disagreement ${(100 * dis.rate).toFixed(1)} % (${dis.disagreed} of ${dis.checks} ${d.protocol === 'listwise' ? 'insertions asked in both orders' : 'comparisons asked in both placements'})`;
  return `${name}${q}${rate}`;
}

/** The judge's unresolved decisions, as one phrase ("" for a file written before they were counted). */
function unresolvedPhrase(d: HeroReportData): string {
  const u = d.unresolved;
  if (!u) return '';
  const what = d.protocol === 'listwise' ? 'judge answers' : 'comparisons';
  return `unresolved: ${u.unresolved} of ${u.answers} ${what}${u.share === null ? '' : ` (${(100 * u.share).toFixed(1)} %)`}, scored as no answer`;
}

function rows(d: HeroReportData): MethodSummary[] {
  return [...d.methods].sort(byScore);
}

export function heroTable(d: HeroReportData): string {
  const head = [
    'method',
    'reader',
    'S',
    '95% CI',
    'S@1',
    'S@5',
    'top-1',
    'beat still',
    'films',
    'insertions',
    'unresolved',
  ];
  const body = [...rows(d), ...d.official].map((m) => [
    ...scoreRow(m),
    m.insertions === null ? '' : String(m.insertions),
    m.unresolved === null ? '' : String(m.unresolved),
  ]);
  return [
    `reader ${d.reader}, protocol ${protocolPhrase(d)}`,
    ...(emulatorNote(d.reader) ? [`note: ${emulatorNote(d.reader)}`] : []),
    ...(d.unresolved ? [unresolvedPhrase(d)] : []),
    ...textTable(head, body),
    ...randomToHumanLines([...d.methods, ...d.official]),
    ...d.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}

export function perFilmCsv(films: FilmScore[]): string {
  const head = ['method', 'movie_id', 'S', 'top1_rate', 'beat_still_rate', 'insertions', 'unresolved'];
  return `${[head.join(','), ...films.map((f) => [f.method, f.movie_id, f.S, f.top1_rate, f.beat_still_rate, f.insertions, f.unresolved].map(csvCell).join(','))].join('\n')}\n`;
}

const SCORE_HEAD = ['method', 'reader', 'S', '95 % CI', 'S@1', 'S@5', 'top-1', 'beat the still', 'films'];

/** One method's cells of the score table, as plain text (escaped by each renderer). */
function scoreRow(m: MethodSummary): string[] {
  return [
    m.official ? `${m.method} (official)` : m.method,
    m.reader,
    f3(m.S),
    m.official ? '' : `${f3(m.ci.S[0])}–${f3(m.ci.S[1])}`,
    f3(m.S_at_k['1']),
    f3(m.S_at_k['5']),
    f3(m.top1_rate),
    f3(m.beat_still_rate),
    m.films === null ? '' : String(m.films),
  ];
}

/** The score table's rows: the methods by score, then the official rows. */
function scoreCells(d: HeroReportData): string[][] {
  return [...rows(d), ...d.official].map(scoreRow);
}

const mdRow = (cells: readonly string[]) => `| ${cells.map(mdText).join(' | ')} |`;

export function heroMarkdown(d: HeroReportData): string {
  const out = [
    `# HeroFrame evaluation`,
    '',
    `Reader: ${mdText(d.reader)} · protocol: ${mdText(protocolPhrase(d))}`,
    '',
    ...(emulatorNote(d.reader) ? [`**Note:** ${mdText(emulatorNote(d.reader))}.`, ''] : []),
    ...(d.unresolved ? [`${mdText(unresolvedPhrase(d))}`, ''] : []),
  ];
  out.push(mdRow(SCORE_HEAD), `|${SCORE_HEAD.map(() => '---').join('|')}|`);
  for (const r of scoreCells(d)) out.push(mdRow(r));
  const way = randomToHumanLines([...d.methods, ...d.official]);
  if (way.length) out.push('', ...way.map((l, i) => (i ? `- ${mdText(l.trim())}` : `${mdText(l)}`)));
  if (d.paired.length) {
    out.push(
      '',
      '## Paired differences of S (bootstrap over films)',
      '',
      '| A | B | S(A) − S(B) | 95 % CI | p |',
      '|---|---|---|---|---|',
    );
    for (const p of d.paired)
      out.push(mdRow([p.a, p.b, f3(p.diff), `${f3(p.ci[0])}–${f3(p.ci[1])}`, f3(p.p)]));
  }
  if (d.warnings.length) out.push('', ...d.warnings.map((w) => `> warning: ${mdText(w)}`));
  return `${out.join('\n')}\n`;
}

export function heroHtml(
  d: HeroReportData,
  thumbs: { method: string; movie_id: string; dataUrl: string }[],
): string {
  const ms = rows(d);
  const W = 640;
  const rowH = 26;
  const x = (v: number | null) => 160 + Math.max(0, Math.min(1, v ?? 0)) * (W - 180);
  const bars = ms
    .map((m, i) => {
      const y = 10 + i * rowH;
      const [lo, hi] = m.ci.S;
      return `<text x="150" y="${y + 15}" text-anchor="end">${esc(m.method)}</text><rect x="160" y="${y + 3}" width="${x(m.S) - 160}" height="16" fill="#4c78a8"><title>${esc(`${m.method}: S ${f3(m.S)} [${f3(lo)}, ${f3(hi)}]`)}</title></rect>${lo !== null && hi !== null ? `<line x1="${x(lo)}" x2="${x(hi)}" y1="${y + 11}" y2="${y + 11}" stroke="#222" stroke-width="2"/><line x1="${x(lo)}" x2="${x(lo)}" y1="${y + 5}" y2="${y + 17}" stroke="#222"/><line x1="${x(hi)}" x2="${x(hi)}" y1="${y + 5}" y2="${y + 17}" stroke="#222"/>` : ''}`;
    })
    .join('');
  const axis = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<line x1="${x(t)}" x2="${x(t)}" y1="5" y2="${15 + ms.length * rowH}" stroke="#ddd"/><text x="${x(t)}" y="${28 + ms.length * rowH}" text-anchor="middle">${t}</text>`,
    )
    .join('');
  const table = [
    `<tr>${SCORE_HEAD.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`,
    ...scoreCells(d).map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`),
  ].join('');
  const films = [...new Set(thumbs.map((t) => t.movie_id))].sort();
  const gallery = films
    .map(
      (f) =>
        `<h3>${esc(f)}</h3><div class="row">${thumbs
          .filter((t) => t.movie_id === f)
          .map(
            (t) =>
              `<figure><img src="${esc(t.dataUrl)}" alt="${esc(`${t.method} top frame`)}"><figcaption>${esc(t.method)}</figcaption></figure>`,
          )
          .join('')}</div>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HeroFrame evaluation</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px}svg text{font:12px sans-serif}.row{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0}img{width:160px;display:block}figcaption{font-size:12px}.warn{color:#a40}</style>
</head><body><h1>HeroFrame evaluation</h1><p>Reader <code>${esc(d.reader)}</code> · protocol ${esc(protocolPhrase(d))}</p>${emulatorNote(d.reader) ? `<p class="emulator-note"><strong>Note:</strong> ${esc(emulatorNote(d.reader))}.</p>` : ''}${d.unresolved ? `<p>${esc(unresolvedPhrase(d))}</p>` : ''}
${d.warnings.map((w) => `<p class="warn">warning: ${esc(w)}</p>`).join('')}
<h2>S with 95 % bootstrap intervals</h2><svg width="${W}" height="${40 + ms.length * rowH}" role="img" aria-label="bar chart of S">${axis}${bars}</svg>
<h2>Scores</h2><table>${table}</table><h2>Each method's top frame per film</h2>${gallery}</body></html>
`;
}
