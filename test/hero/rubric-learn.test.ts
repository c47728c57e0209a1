/**
 * Rubric learning with its two admission gates and Phase B, against the VLM emulator over HTTP on
 * the mini set: the emulator proposes a guideline on the feature that decided a pair, and on
 * request one whose reversal flips nothing (gate 1 must reject it) or one that overturns settled
 * pairs (gate 2 must reject it).
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinEmbedder } from '../../src/embed/builtin.js';
import { buildChains } from '../../src/hero/build/build.js';
import { heroInstructions } from '../../src/hero/prompt.js';
import {
  learnRubric,
  mostDissimilar,
  phaseB,
  phaseBFinal,
  type RoundBuild,
  roundTotals,
} from '../../src/hero/rubric-learn.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { comparePair } from '../../src/judge/pairwise.js';
import { loadImage, resizeImage } from '../../src/media/image.js';
import type { FaultPlan } from '../../src/synthetic/emulator/faults.js';
import type { MiniHeroPaths } from '../../src/synthetic/mini-hero.js';
import { checkContracts, HERO_CONTRACTS } from '../support/contracts.js';
import { emulatorJudge } from '../support/emulator.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { media, tempDir } from '../support/paths.js';

let mini: MiniHeroPaths;
const jsonl = (f: string) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

beforeAll(async () => {
  mini = await sharedMiniHero();
});

async function learn(faults?: FaultPlan) {
  const data = tempDir('kfbench-rubric-');
  cpSync(mini.data, data, { recursive: true });
  const j = await emulatorJudge(faults ? { faults } : {});
  try {
    const report = await buildChains({
      data,
      lsmdc: mini.lsmdc,
      stills: mini.stills,
      judge: j.judge,
      encoder: new ImageEncoder(),
      chainsPerFilm: 2,
      learnRubric: true,
      rounds: 2,
      seed: 'rubric-test',
    });
    return { data, report };
  } finally {
    await j.close();
  }
}

describe('hero build --learn-rubric', () => {
  let normal: Awaited<ReturnType<typeof learn>>;
  it('admits guidelines that pass both gates, logs every proposal, writes the published shapes', async () => {
    normal = await learn();
    const { data, report } = normal;
    const rubrics = jsonl(join(data, 'data', 'rubrics.jsonl'));
    const proposals = jsonl(join(data, 'stats', 'rubric_proposals.jsonl'));
    // the learner's files round-trip through their one schema each
    expect(
      checkContracts(data, HERO_CONTRACTS, /^(data\/rubrics|stats\/(build_report|rubric_proposals))/),
    ).toEqual(['data/rubrics.jsonl', 'stats/build_report.json', 'stats/rubric_proposals.jsonl']);
    expect(rubrics.map((r) => r.movie_id).sort()).toEqual(
      jsonl(join(data, 'data', 'movies.jsonl'))
        .map((m) => m.movie_id)
        .sort(),
    );
    const rules = rubrics.flatMap((r) => r.criteria);
    expect(rules.length).toBeGreaterThan(0);
    for (const c of rules) {
      expect(c.as_the_judge_read_it).toMatch(/^Prefer the /);
      expect(c.source_pair).toHaveLength(2);
      expect(c.round).toBeGreaterThanOrEqual(1);
    }
    expect(proposals.filter((p) => p.outcome === 'admitted')).toHaveLength(
      rules.length + rubrics.reduce((n, r) => n + r.pruned_by_phase_b.length, 0),
    );
    for (const p of proposals)
      expect(['admitted', 'gate1', 'gate2', 'no_proposal', 'max_rules']).toContain(p.outcome);
    const rounds = report.rubric!.rounds;
    expect(rounds.length).toBeGreaterThan(0);
    for (const r of rounds) {
      expect(r.proposals).toBe(r.admitted + r.rejected_gate1 + r.rejected_gate2 + r.no_proposal);
      expect(r.rejection_rate).toBeGreaterThanOrEqual(0);
    }
  });

  it('gate 1 rejects a guideline whose reversal does not flip its pair', async () => {
    const { data, report } = await learn({ rate: 1, kinds: ['weak-guideline'] });
    const proposals = jsonl(join(data, 'stats', 'rubric_proposals.jsonl'));
    expect(proposals.length).toBeGreaterThan(0);
    expect(proposals.every((p) => p.outcome === 'gate1')).toBe(true);
    expect(jsonl(join(data, 'data', 'rubrics.jsonl')).flatMap((r) => r.criteria)).toEqual([]);
    expect(report.rubric!.rounds.every((r) => r.rejection_rate === 1)).toBe(true);
  });

  it('gate 2 rejects a guideline that overturns settled pairs of the most dissimilar chain', async () => {
    const { data } = await learn({ rate: 1, kinds: ['greedy-guideline'] });
    const proposals = jsonl(join(data, 'stats', 'rubric_proposals.jsonl'));
    expect(proposals.some((p) => p.outcome === 'gate2')).toBe(true);
    expect(proposals.some((p) => p.outcome === 'admitted')).toBe(false);
  });

  it('an admitted guideline changes later judgments as the emulator dictates', async () => {
    const { data } = normal;
    const rubrics = jsonl(join(data, 'data', 'rubrics.jsonl'));
    const film = rubrics.find((r) => r.criteria.length > 0)!;
    const rule = film.criteria[0];
    const j2 = await emulatorJudge();
    try {
      const enc = new ImageEncoder();
      const img = (id: string) => enc.fromFile(join(data, 'images', film.movie_id, `${id}.jpg`));
      const [a, b] = await Promise.all([img(rule.source_pair[0]), img(rule.source_pair[1])]);
      const movie = { title: film.movie_id, year: 0 };
      const withIt = await comparePair(j2.judge, a, b, heroInstructions(movie, { criteria: [rule] }));
      const reversed = rule.as_the_judge_read_it.replace(
        /sharper|blurrier|brighter|darker|more colourful|less colourful|a centred|an off-centre/,
        (w: string) =>
          ({
            sharper: 'blurrier',
            blurrier: 'sharper',
            brighter: 'darker',
            darker: 'brighter',
            'more colourful': 'less colourful',
            'less colourful': 'more colourful',
            'a centred': 'an off-centre',
            'an off-centre': 'a centred',
          })[w]!,
      );
      const withRev = await comparePair(
        j2.judge,
        a,
        b,
        heroInstructions(movie, { criteria: [{ as_the_judge_read_it: reversed }] }),
      );
      expect(withIt.status).toBe('confident');
      expect(withRev.status).toBe('confident');
      expect(withIt.winner).not.toBe(withRev.winner);
    } finally {
      await j2.close();
    }
  });

  it('gate 2 compares against the outcomes as they stand: a later proposal is not blamed for what an earlier admission changed', async () => {
    // Two chains of two images each, a sharp image and a blurred copy. Every proposal is the greedy
    // "Prefer the blurrier image." ×3. The first (from the most dissimilar chain, the gate-2 group)
    // flips its own pair — its source pair, which gate 2 leaves out — and is admitted. The second,
    // from the other chain, changes nothing in the group beyond what the first already changed.
    const j = await emulatorJudge({ faults: { rate: 1, kinds: ['greedy-guideline'] } });
    try {
      const enc = new ImageEncoder();
      const blurred = async (file: string) => {
        const img = await loadImage(media(file));
        const small = await resizeImage(img, Math.round(img.width / 8), Math.round(img.height / 8));
        return resizeImage(small, img.width, img.height);
      };
      const member = async (id: string, raw: Awaited<ReturnType<typeof loadImage>>) => {
        const image = await enc.fromRaw(raw);
        return { id, image, bytes: image.bytes };
      };
      let members = [
        [
          await member('s1', await loadImage(media('base.png'))),
          await member('b1', await blurred('base.png')),
        ],
        [
          await member('s2', await loadImage(media('astronaut.png'))),
          await member('b2', await blurred('astronaut.png')),
        ],
      ];
      const embedder = createBuiltinEmbedder();
      const group = await mostDissimilar(members, embedder);
      members = [members[group]!, members[1 - group]!]; // the group's proposal is tested first
      const movie = { title: 'Gate two', year: 2000 };
      const instructionsFor = (cs: readonly { as_the_judge_read_it: string }[]) =>
        heroInstructions(movie, { criteria: cs });
      const chains: RoundBuild['chains'] = [];
      for (const [ci, [a, b]] of members.entries()) {
        const out = await comparePair(j.judge, a!.image, b!.image, instructionsFor([]));
        expect(out.status).toBe('confident');
        expect(out.winner).toBe('A'); // the sharp image wins without a rubric
        chains.push({
          chain_id: `c0${ci}`,
          pairs: [{ a: a!.id, b: b!.id, winner: a!.id, status: 'confident' }],
        });
      }
      const r = await learnRubric(
        {
          judge: j.judge,
          embedder,
          rounds: 1,
          maxRules: 20,
          seed: 0,
          movie: 'gate-two',
          instructionsFor,
          build: async () => ({ chains, members, deletedIn: new Map() }),
        },
        [],
      );
      expect(r.proposals.map((p) => [p.source_pair[0], p.outcome])).toEqual([
        [members[0]![0]!.id, 'admitted'],
        [members[1]![0]!.id, 'admitted'], // start-of-round outcomes would blame it for the first rule's flip
      ]);
      expect(r.criteria.map((c) => c.source_chain)).toEqual(['c00', 'c01']);
    } finally {
      await j.close();
    }
  });

  it('Phase B moves out exactly the rules anchored on a still deleted in the chain they came from', () => {
    const rules = [
      { id: 1, source_pair: ['s1', 'f1'] as const, source_chain: 'c00' },
      { id: 2, source_pair: ['f2', 'f3'] as const, source_chain: 'c00' },
      { id: 3, source_pair: ['f4', 's2'] as const, source_chain: 'c01' },
      // s1 was deleted in c00 only: in c02, where this rule came from, it survived
      { id: 4, source_pair: ['s1', 'f5'] as const, source_chain: 'c02' },
      // a rule that does not say its chain falls back to a deletion anywhere in the film
      { id: 5, source_pair: ['s1', 'f6'] as const },
    ];
    const deletedIn = new Map([
      ['c00', new Set(['s1'])],
      ['c01', new Set(['s2'])],
    ]);
    const r = phaseB(rules, deletedIn);
    expect(r.pruned.map((x) => x.id)).toEqual([1, 3, 5]);
    expect(r.kept.map((x) => x.id)).toEqual([2, 4]);
  });

  it('Phase B prunes against the final chains only: a still deleted in round 1 that is back in the final chain prunes nothing', () => {
    const rules = [
      { id: 1, source_pair: ['s1', 'f1'] as const, source_chain: 'c00' },
      { id: 2, source_pair: ['s2', 'f2'] as const, source_chain: 'c01' },
    ];
    // round 1 deleted s1 from c00; the final build (with the learned rubric) kept it, and deleted s2 from c01
    const round1 = new Map([['c00', new Set(['s1'])]]);
    const final = {
      deletedIn: new Map([['c01', new Set(['s2'])]]),
      chains: [
        { chain_id: 'c00', order: ['s1', 'f1', 'f7', 'f8', 'f9', 'f10'] },
        { chain_id: 'c01', order: ['s3', 'f2', 'f11', 'f12', 'f13', 'f14'] },
      ],
    };
    const r = phaseBFinal(rules, final);
    expect(r.pruned.map((x) => x.id)).toEqual([2]);
    expect(r.kept.map((x) => x.id)).toEqual([1]);
    // what piling the rounds' deletions up did: rule 1 pruned for a still the published chain holds
    expect(phaseB(rules, new Map([...round1, ...final.deletedIn])).pruned.map((x) => x.id)).toEqual([1, 2]);
    // a still listed as deleted in a chain whose final order holds it is not deleted there
    const odd = { ...final, deletedIn: new Map([['c00', new Set(['s1'])]]) };
    expect(phaseBFinal(rules, odd).pruned).toEqual([]);
  });

  it('every learned rule records the chain it came from', () => {
    const rubrics = jsonl(join(normal.data, 'data', 'rubrics.jsonl'));
    const chains = new Map(
      jsonl(join(normal.data, 'data', 'chains.jsonl')).map((f) => [
        f.movie_id,
        f.chains.map((c: { chain_id: string }) => c.chain_id),
      ]),
    );
    for (const r of rubrics)
      for (const c of [...r.criteria, ...r.pruned_by_phase_b])
        expect(chains.get(r.movie_id)).toContain(c.source_chain);
  });

  it('every learned rule records its source anchor: a publicity still (rm-prefixed id)', () => {
    const rubrics = jsonl(join(normal.data, 'data', 'rubrics.jsonl'));
    const rules = rubrics.flatMap((r) => [...r.criteria, ...r.pruned_by_phase_b]);
    expect(rules.length).toBeGreaterThan(0);
    for (const c of rules) expect(c.source_anchor).toMatch(/^rm/);
  });
});

describe('Phase B reads the source anchor', () => {
  // HeroFrame-Bench card: "They appear under pruned_by_phase_b because their source anchor was deleted."
  it('prunes every rule whose source anchor was deleted in its chain, even one learned from two sampled frames', () => {
    const rules = [
      // learned from two sampled frames of c00, whose anchor s1 the floor deleted
      { id: 1, source_pair: ['f1', 'f2'] as const, source_chain: 'c00', source_anchor: 's1' },
      // c01's anchor s2 survived: nothing of this rule was deleted
      { id: 2, source_pair: ['f3', 'f4'] as const, source_chain: 'c01', source_anchor: 's2' },
      // learned when c00 was anchored by s3 (a replacement that stayed in the final chain)
      { id: 3, source_pair: ['s3', 'f5'] as const, source_chain: 'c00', source_anchor: 's3' },
    ];
    const r = phaseB(rules, new Map([['c00', new Set(['s1'])]]));
    expect(r.pruned.map((x) => x.id)).toEqual([1]);
    expect(r.kept.map((x) => x.id)).toEqual([2, 3]);
    const final = {
      deletedIn: new Map([['c00', new Set(['s1'])]]),
      chains: [
        { chain_id: 'c00', order: ['s3', 'f1', 'f2', 'f5', 'f6', 'f7'] },
        { chain_id: 'c01', order: ['s2', 'f3', 'f4', 'f8', 'f9', 'f10'] },
      ],
    };
    expect(phaseBFinal(rules, final).pruned.map((x) => x.id)).toEqual([1]);
  });
});

describe('roundTotals', () => {
  it('sums every film round by round; the rejection rate is over proposals that gave a guideline', () => {
    const r = (round: number, proposals: number, admitted: number, g1: number, g2: number, none: number) => ({
      round,
      proposals,
      admitted,
      rejected_gate1: g1,
      rejected_gate2: g2,
      no_proposal: none,
      rejection_rate: 0,
    });
    expect(roundTotals([r(2, 3, 1, 1, 0, 1), r(1, 4, 2, 1, 1, 0), r(1, 2, 0, 0, 1, 1)])).toEqual([
      { ...r(1, 6, 2, 1, 2, 1), rejection_rate: 3 / 5 },
      { ...r(2, 3, 1, 1, 0, 1), rejection_rate: 1 / 2 },
    ]);
    expect(roundTotals([r(1, 2, 0, 0, 0, 2)])[0]!.rejection_rate).toBe(0);
  });
});
