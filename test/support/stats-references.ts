import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.js';

export const STATS = join(ROOT, 'test', 'fixtures', 'stats');
type Comp = { a: string; b: string; score: number };
export interface StatsReferences {
  rank: {
    name: string;
    x: number[];
    y: number[];
    spearman: number;
    p_asymptotic: number;
    kendall_tau_b: number;
    p_exact?: number;
  }[];
  bt: {
    name: string;
    comparisons: Comp[];
    ridge: number;
    mle_exists: boolean;
    strengths_scipy: Record<string, number>;
    strengths_r?: Record<string, number> | null;
    'strengths_scipy_ridge_0.1': Record<string, number>;
  }[];
  eer: {
    name: string;
    scores: number[];
    labels: (0 | 1)[];
    eer: number;
    threshold: number;
    at: { threshold: number; fpr: number; fnr: number };
  }[];
  alpha: {
    name: string;
    matrix: (number | null)[][];
    nominal: number;
    ordinal: number;
    interval: number;
    units_used: number;
    published?: Record<string, number>;
  }[];
  wilson: { k: number; n: number; lo: number; hi: number }[];
  mcnemar: { b: number; c: number; p_exact: number; chi2: number; p_chi2: number }[];
}

export function statsReferences(): StatsReferences {
  return JSON.parse(readFileSync(join(STATS, 'references.json'), 'utf8')) as StatsReferences;
}
