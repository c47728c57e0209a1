/**
 * A film: its chains as rows of stills, best first, with strength bars and each adjacent pair's
 * status on hover; each method's frames placed into every chain at the position the reader gave
 * (the verdicts behind a placement one click away, via `:target`, no script needed); the rubric
 * with its rounds, pruned rules and the proposal log.
 */
import type { Chain, FilmRubric } from '../../hero/dataset/schemas.js';
import type { InsertionRecord, InsertionVerdict } from '../../hero/results.js';
import { strengthBar } from '../chart.js';
import { f3, type Html, html } from '../html.js';
import type { Site } from '../site.js';
import type { HeroResults, HeroView, ProposalRow } from '../view-types.js';
import { page } from './layout.js';

function stillUrl(site: Site, film: string, imageId: string): string {
  return site.file('images', `${film}/${imageId}.jpg`);
}

function frameUrl(site: Site, film: string, r: Pick<InsertionRecord, 'frame'>): string {
  return typeof r.frame === 'number'
    ? site.file('track', `${film}/${r.frame}.jpg`)
    : stillUrl(site, film, r.frame);
}

function pairTitle(c: Chain, a: string, b: string): { cls: string; title: string } {
  const p = c.pairs.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
  if (!p) return { cls: 'pair none', title: `${a} vs ${b}: no comparison recorded` };
  const winner = p.winner === null ? 'no winner' : `winner ${p.winner}`;
  return { cls: `pair ${p.status}`, title: `${a} vs ${b}: ${p.status}, ${winner}` };
}

/** A published value as text: numbers to 3 decimals, lists joined, records as JSON (cut at 200). */
function shown(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : f3(v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null))
    return v.length ? v.join(', ') : 'none';
  const j = JSON.stringify(v);
  return j.length > 200 ? `${j.slice(0, 199)}…` : j;
}

/** What the release says of the film beside its chains: method_tag, summary, removed anchors. */
function releaseSection(row: Record<string, unknown>): Html {
  const summary = row.summary && typeof row.summary === 'object' ? Object.entries(row.summary) : [];
  const removed = Array.isArray(row.removed_anchors) ? row.removed_anchors : undefined;
  if (row.method_tag === undefined && !summary.length && removed === undefined) return html``;
  return html`<section id="release"><h2>As published</h2><dl class="release">
${row.method_tag !== undefined ? html`<dt>method_tag</dt><dd data-field="method_tag">${shown(row.method_tag)}</dd>` : ''}
${summary.map(([k, v]) => html`<dt>summary.${k}</dt><dd data-field="summary.${k}">${shown(v)}</dd>`)}
${removed !== undefined ? html`<dt>removed_anchors</dt><dd data-field="removed_anchors">${removed.length ? removed.map((r) => (r && typeof r === 'object' && 'anchor' in r ? shown((r as { anchor: unknown }).anchor) : shown(r))).join(', ') : 'none'}</dd>` : ''}
</dl></section>`;
}

/** The chain's own published fields (coverage, freeze_reason, …) in its heading. */
const CHAIN_FIELDS = [
  'coverage',
  'freeze_reason',
  'freeze_draw_index',
  'n_draws_used',
  'rubric_ids',
] as const;

function chainRow(site: Site, film: string, c: Chain): Html {
  const imgs = new Map(c.images.map((i) => [i.image_id, i]));
  const extra = CHAIN_FIELDS.filter((k) => c[k] !== undefined).map(
    (k) => html` · <span data-field="${k}">${k} ${shown(c[k])}</span>`,
  );
  return html`<div class="chain" data-chain="${c.chain_id}"><h3>chain <span class="id">${c.chain_id}</span> <span class="meta">${c.order.length} images, best first${extra}</span></h3><ol class="row">
${c.order.map((id, k) => {
  const im = imgs.get(id);
  const pair = k + 1 < c.order.length ? pairTitle(c, id, c.order[k + 1]!) : undefined;
  return html`<li class="still src-${im?.source ?? 'unknown'}" data-image="${id}"><img src="${stillUrl(site, film, id)}" alt="${`${id} (${im?.source ?? '?'})`}" loading="lazy">
<div class="cap"><b>#${k + 1}</b> ${id}${im?.source === 'still' ? html` <span class="tag">still</span>` : ''}</div>
${im ? html`${strengthBar(im.theta_0_100, `strength θ ${im.theta_0_100.toFixed(1)} / 100, γ ${im.gamma.toFixed(3)}`)}<div class="cap">θ ${im.theta_0_100.toFixed(1)}</div>` : ''}
</li>${pair ? html`<li class="${pair.cls}" title="${pair.title}" data-pair="${pair.title}"><span>${pair.cls.endsWith('confident') ? '›' : '?'}</span></li>` : ''}`;
})}</ol></div>`;
}

function verdictTable(site: Site, film: string, vs: readonly InsertionVerdict[] | undefined): Html {
  if (!vs?.length)
    return html`<p class="empty">No verdicts recorded (results written before kfbench kept them).</p>`;
  return html`<table class="verdicts"><thead><tr><th>against</th><th>outcome</th><th>status</th><th>what the judge said</th></tr></thead><tbody>
${vs.map(
  (
    v,
  ) => html`<tr class="${v.status}"><td>${v.against ? html`<img class="mini" src="${stillUrl(site, film, v.against)}" alt="${v.against}"> ${v.against}` : 'whole chain (listwise)'}</td>
<td>${v.against ? (v.winner === 'frame' ? 'frame above' : v.winner === 'chain' ? 'chain image above' : 'no winner') : `position ${v.position ?? '—'}`}</td><td>${v.status}</td>
<td><ul>${v.reasons.map((r) => html`<li>${r}</li>`)}</ul></td></tr>`,
)}</tbody></table>`;
}

function placementRow(site: Site, film: string, c: Chain, rs: InsertionRecord[], idBase: string): Html {
  const n = c.order.length;
  const seq: Html[] = [];
  const verdicts: Html[] = [];
  for (let slot = 0; slot <= n; slot++) {
    for (const r of rs.filter((x) => x.chain_length - x.position === slot).sort((a, b) => a.rank - b.rank)) {
      const id = `${idBase}-r${r.rank}`;
      seq.push(
        html`<li class="ins" data-rank="${r.rank}" data-position="${r.position}"><a href="${`#${id}`}" title="${`rank ${r.rank}: placed above ${r.position} of ${r.chain_length} (s = ${f3(r.s)}) — click for the verdicts`}"><img src="${frameUrl(site, film, r)}" alt="${`rank ${r.rank} frame ${r.frame}`}" loading="lazy"><div class="cap"><b>rank ${r.rank}</b> · s ${f3(r.s)}${r.unresolved ? html` · <span class="warn">${r.unresolved} unresolved</span>` : ''}</div></a></li>`,
      );
      verdicts.push(
        html`<div class="verdict-panel" id="${id}"><h5>rank ${r.rank} (frame ${r.frame}) in chain ${c.chain_id}: above ${r.position} of ${r.chain_length}${r.above_still ? ', above the still' : ''} <a href="#" class="close">close</a></h5>${verdictTable(site, film, r.verdicts)}</div>`,
      );
    }
    if (slot < n)
      seq.push(
        html`<li class="still ghost" data-image="${c.order[slot]!}"><img src="${stillUrl(site, film, c.order[slot]!)}" alt="${c.order[slot]!}" loading="lazy"><div class="cap">#${slot + 1}</div></li>`,
      );
  }
  return html`<div class="placement" data-chain="${c.chain_id}"><div class="label">chain <span class="id">${c.chain_id}</span></div><ol class="row">${seq}</ol>${verdicts}</div>`;
}

function methodSections(site: Site, film: string, chains: Chain[], r: HeroResults, ri: number): Html {
  const rows = r.insertions.get(film) ?? [];
  const methods = [...new Set(rows.map((x) => x.method))].sort((a, b) =>
    a === 'stills' ? 1 : b === 'stills' ? -1 : a.localeCompare(b),
  );
  if (!methods.length) return html`<p class="empty">${r.label}: no placements for this film.</p>`;
  return html`${methods.map((m, mi) => {
    const mine = rows.filter((x) => x.method === m);
    const S = mine.reduce((a, x) => a + x.s, 0) / mine.length;
    return html`<details class="method" data-method="${m}" ${mi === 0 && ri === 0 ? html`open` : ''}><summary><b>${m}</b> <span class="meta">${r.label} · S<sub>f</sub> ${f3(S)} over ${mine.length} insertions</span></summary>
${chains.map((c, ci) =>
  placementRow(
    site,
    film,
    c,
    mine.filter((x) => x.chain_id === c.chain_id),
    `v${ri}-${mi}-${ci}`,
  ),
)}</details>`;
  })}`;
}

function criterionText(x: unknown): Html {
  if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    return html`${o.criterion_id ? html`<code>${String(o.criterion_id)}</code> ` : ''}${String(o.as_the_judge_read_it ?? JSON.stringify(x))}${typeof o.round === 'number' ? html` <span class="meta">round ${o.round}</span>` : ''}`;
  }
  return html`${String(x)}`;
}

function rubricSection(
  site: Site,
  film: string,
  rubric: FilmRubric | undefined,
  proposals: ProposalRow[],
): Html {
  if (!rubric?.criteria.length && !rubric?.pruned_by_phase_b?.length && !proposals.length)
    return html`<section id="rubric"><h2>Rubric</h2><p class="empty">No rubric for this film (build with <code>npx kfbench hero build --learn-rubric</code>).</p></section>`;
  const rounds = [
    ...new Set([...(rubric?.criteria ?? []).map((c) => c.round), ...proposals.map((p) => p.round)]),
  ].sort((a, b) => a - b);
  return html`<section id="rubric"><h2>Rubric</h2>
${rounds.map((round) => {
  const rules = (rubric?.criteria ?? []).filter((c) => c.round === round);
  const ps = proposals.filter((p) => p.round === round);
  const count = (o: string) => ps.filter((p) => p.outcome === o).length;
  return html`<h3>round ${round}</h3>${ps.length ? html`<p class="meta">${ps.length} proposals: ${count('admitted')} admitted, ${count('gate1')} rejected by gate 1 (reverse flip), ${count('gate2')} by gate 2 (non-disturbance)${count('no_proposal') ? `, ${count('no_proposal')} without a guideline` : ''}</p>` : ''}
<ol class="rules">${rules.map(
    (c) =>
      html`<li class="rule" data-criterion="${c.criterion_id}"><code>${c.criterion_id}</code> <span class="sentence">${c.as_the_judge_read_it}</span> <span class="meta">from the pair</span> <img class="mini" src="${stillUrl(site, film, c.source_pair[0])}" alt="${c.source_pair[0]}"> vs <img class="mini" src="${stillUrl(site, film, c.source_pair[1])}" alt="${c.source_pair[1]}"></li>`,
  )}</ol>`;
})}
<h3>Pruned by Phase B</h3>${rubric?.pruned_by_phase_b?.length ? html`<ul class="pruned">${rubric.pruned_by_phase_b.map((x) => html`<li>${criterionText(x)}</li>`)}</ul>` : html`<p class="empty">none</p>`}
</section>`;
}

export function filmPage(site: Site, film: string): string {
  const hero = site.data.hero as HeroView;
  const movie = hero.movies.get(film);
  const row = hero.chains.get(film)!;
  const chains = row.chains;
  const title = movie ? `${movie.title} (${movie.year})` : film;
  const body = html`<h1 class="film-title">${title}</h1><p class="meta">movie id <code>${film}</code> · ${chains.length} chains</p>
${releaseSection(row)}
<section id="chains"><h2>Chains</h2><p class="meta">Each row is a frozen chain, best first; the bar under a still is its strength θ. Hover a connector for the pair's status (› confident, ? unresolved).</p>${chains.map((c) => chainRow(site, film, c))}</section>
<section id="placements"><h2>Each method's frames in the chains</h2><p class="meta">Frames (outlined) sit where the reader placed them; click one for the verdicts behind its position.</p>
${hero.results.length ? hero.results.map((r, ri) => html`<h3>${r.label} <span class="meta">reader ${r.reader}, ${r.protocol}</span></h3>${methodSections(site, film, chains, r, ri)}`) : html`<p class="empty">No results folder was given.</p>`}</section>
${rubricSection(site, film, hero.rubrics.get(film), hero.proposals.get(film) ?? [])}`;
  return page({
    title,
    problems: site.data.problems.filter((p) => p.area === 'hero'),
    body,
    crumbs: html` › <span>${title}</span>`,
  });
}
