#!/usr/bin/python3
"""Reference values for src/stats from independent implementations.

- Spearman ρ, its asymptotic p, Kendall τ-b: scipy.stats (spearmanr, kendalltau).
- Spearman exact permutation p (n ≤ 9): brute force over itertools.permutations.
- Bradley–Terry: scipy.optimize.minimize (trust-exact with analytic gradient and Hessian) on the
  (penalised) negative log-likelihood; and R's BradleyTerry2::BTm where the MLE exists.
- EER: sklearn.metrics.roc_curve (all points) walked as the definition says.
- Krippendorff's α: the worked example of Krippendorff (2011), "Computing Krippendorff's
  Alpha-Reliability", whose published values are nominal 0.743, ordinal 0.815, interval 0.849;
  and a second implementation here by pairwise disagreements (not the coincidence matrix).
- Wilson interval and McNemar exact p: scipy.stats.binomtest.

Run by hand (never in CI):  /usr/bin/python3 scripts/stats-references.py
Writes test/fixtures/stats/references.json and the data files the CLI tests use.
"""
import itertools
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np
from scipy import optimize, stats
from sklearn.metrics import roc_curve

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "test", "fixtures", "stats")
rng = np.random.default_rng(20261129)


# ---------------------------------------------------------------- rank correlation
def exact_spearman_p(x, y):
    rx = stats.rankdata(x)
    ry = stats.rankdata(y)
    obs = abs(np.corrcoef(rx, ry)[0, 1])
    hits = total = 0
    for p in itertools.permutations(range(len(x))):
        r = abs(np.corrcoef(rx, ry[list(p)])[0, 1])
        total += 1
        hits += r >= obs - 1e-12
    return hits / total


rank_sets = [
    {"name": "n5-no-ties", "x": [1, 2, 3, 4, 5], "y": [2, 1, 4, 3, 5]},
    {"name": "n5-ties", "x": [1, 2, 2, 3, 4], "y": [1, 3, 2, 2, 5]},
    {"name": "n7-ties-both", "x": [0.1, 0.4, 0.4, 0.9, 0.2, 0.9, 0.5], "y": [3, 1, 2, 2, 3, 4, 1]},
    {"name": "n9-negative", "x": [9, 8, 7, 6, 5, 4, 3, 2, 1], "y": [1, 3, 2, 4, 6, 5, 8, 7, 9]},
    {"name": "n12-ties", "x": [int(v) for v in rng.integers(0, 5, 12)], "y": [int(v) for v in rng.integers(0, 4, 12)]},
    {"name": "n40", "x": [float(v) for v in np.round(rng.normal(size=40), 3)], "y": None},
]
rank_sets[-1]["y"] = [float(v) for v in np.round(np.array(rank_sets[-1]["x"]) * 0.5 + rng.normal(size=40), 3)]
rank_refs = []
for s in rank_sets:
    x, y = np.array(s["x"], float), np.array(s["y"], float)
    rho, p = stats.spearmanr(x, y)
    tau, _ = stats.kendalltau(x, y)  # tau-b
    r = {**s, "spearman": float(rho), "p_asymptotic": float(p), "kendall_tau_b": float(tau)}
    if len(x) <= 9:
        r["p_exact"] = exact_spearman_p(x, y)
    rank_refs.append(r)


# ---------------------------------------------------------------- Bradley–Terry
def bt_fit(comps, ridge):
    items = sorted({c["a"] for c in comps} | {c["b"] for c in comps})
    ix = {k: i for i, k in enumerate(items)}
    A = np.array([ix[c["a"]] for c in comps])
    B = np.array([ix[c["b"]] for c in comps])
    S = np.array([c["score"] for c in comps], float)
    n = len(items)

    def f(beta):
        d = beta[A] - beta[B]
        return np.sum(S * np.logaddexp(0, -d) + (1 - S) * np.logaddexp(0, d)) + ridge * np.sum(beta ** 2)

    def g(beta):
        d = beta[A] - beta[B]
        p = 1 / (1 + np.exp(-d))
        r = p - S
        out = np.zeros(n)
        np.add.at(out, A, r)
        np.add.at(out, B, -r)
        return out + 2 * ridge * beta

    def h(beta):
        d = beta[A] - beta[B]
        p = 1 / (1 + np.exp(-d))
        w = p * (1 - p)
        H = np.zeros((n, n))
        np.add.at(H, (A, A), w)
        np.add.at(H, (B, B), w)
        np.add.at(H, (A, B), -w)
        np.add.at(H, (B, A), -w)
        H += 2 * ridge * np.eye(n)
        if ridge == 0:
            H += np.ones((n, n))  # fixes the flat direction; g is orthogonal to it
        return H

    res = optimize.minimize(f, np.zeros(n), jac=g, hess=h, method="trust-exact", options={"gtol": 1e-13})
    beta = res.x - res.x.mean()
    return {k: float(beta[i]) for i, k in enumerate(items)}


def bt_r(comps):
    if not shutil.which("Rscript"):
        return None
    code = """
suppressMessages(library(BradleyTerry2))
d <- read.csv(commandArgs(TRUE)[1], stringsAsFactors = FALSE)
lv <- sort(unique(c(d$a, d$b)))
d$a <- factor(d$a, levels = lv); d$b <- factor(d$b, levels = lv)
d$wa <- d$score; d$wb <- 1 - d$score
m <- suppressWarnings(BTm(cbind(wa, wb), a, b, data = d, control = glm.control(epsilon = 1e-14, maxit = 200)))
ab <- c(0, coef(m)); names(ab) <- lv
ab <- ab - mean(ab)
cat(paste(names(ab), format(ab, digits = 17), sep = "=", collapse = "\\n"))
"""
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "c.csv")
        with open(csv, "w") as fh:
            fh.write("a,b,score\n" + "\n".join(f'{c["a"]},{c["b"]},{c["score"]}' for c in comps) + "\n")
        rs = os.path.join(d, "bt.R")
        with open(rs, "w") as fh:
            fh.write(code)
        r = subprocess.run(["Rscript", rs, csv], capture_output=True, text=True)
        if r.returncode != 0:
            print("R failed:", r.stderr[-500:])
            return None
        return {k: float(v) for k, v in (line.split("=") for line in r.stdout.strip().split("\n"))}


def comps_from(spec):
    return [{"a": a, "b": b, "score": s} for a, b, s in spec]


bt_sets = [
    {"name": "four-mixed", "comparisons": comps_from([
        ("A", "B", 1), ("A", "B", 1), ("B", "A", 1), ("A", "C", 1), ("C", "A", 1), ("A", "D", 1),
        ("B", "C", 1), ("B", "C", 0), ("C", "D", 1), ("D", "C", 1), ("D", "B", 1), ("B", "D", 1),
        ("D", "A", 1), ("C", "B", 1)])},
    {"name": "tie-heavy", "comparisons": comps_from([
        ("p", "q", 0.5), ("p", "q", 0.5), ("p", "r", 0.5), ("q", "r", 1), ("r", "q", 0.5), ("p", "s", 1),
        ("s", "p", 0.5), ("q", "s", 0.5), ("r", "s", 0.5), ("s", "r", 0), ("p", "r", 1), ("q", "p", 0.5)])},
    {"name": "separable-chain", "comparisons": comps_from([
        (a, b, 1) for a, b in itertools.combinations(["s1", "f1", "f2", "f3", "f4", "f5"], 2)])},
    {"name": "chain-with-unresolved", "comparisons": comps_from([
        ("s", "f1", 1), ("s", "f2", 1), ("s", "f3", 0.5), ("s", "f4", 1), ("s", "f5", 1),
        ("f1", "f2", 0.5), ("f1", "f3", 0), ("f1", "f4", 1), ("f1", "f5", 1),
        ("f2", "f3", 0), ("f2", "f4", 0.5), ("f2", "f5", 1),
        ("f3", "f4", 1), ("f3", "f5", 1), ("f4", "f5", 0.5)])},
]
bt_refs = []
for s in bt_sets:
    sep = s["name"] in ("separable-chain", "chain-with-unresolved")
    ridge = 1e-3 if sep else 0.0
    r = {**s, "ridge": ridge, "mle_exists": not sep, "strengths_scipy": bt_fit(s["comparisons"], ridge)}
    if not sep:
        r["strengths_r"] = bt_r(s["comparisons"])
    r["strengths_scipy_ridge_0.1"] = bt_fit(s["comparisons"], 0.1)
    bt_refs.append(r)


# ---------------------------------------------------------------- EER
def eer_ref(scores, labels):
    fpr, tpr, thr = roc_curve(labels, scores, drop_intermediate=False)
    fnr = 1 - tpr
    prev = None
    for i in range(len(thr)):
        d = fnr[i] - fpr[i]
        if d <= 0:
            if d == 0:
                return float(fpr[i]), float(thr[i])
            dp = fnr[i - 1] - fpr[i - 1]
            w = dp / (dp - d)
            e = fpr[i - 1] + w * (fpr[i] - fpr[i - 1])
            t = thr[i] if not np.isfinite(thr[i - 1]) else thr[i - 1] + w * (thr[i] - thr[i - 1])
            return float(e), float(t)
    return float(fpr[-1]), float(thr[-1])


def rates_at(scores, labels, t):
    s, l = np.array(scores), np.array(labels)
    return {"threshold": t, "fpr": float(np.mean(s[l == 0] >= t)), "fnr": float(np.mean(s[l == 1] < t))}


eer_sets = [
    {"name": "separated", "scores": [0.9, 0.85, 0.8, 0.7, 0.3, 0.2, 0.1, 0.75], "labels": [1, 1, 1, 1, 0, 0, 0, 0]},
    {"name": "ties-at-threshold", "scores": [0.9, 0.8, 0.8, 0.8, 0.6, 0.8, 0.5, 0.4, 0.8, 0.3],
     "labels": [1, 1, 1, 0, 1, 0, 0, 0, 0, 1]},
    {"name": "exact-crossing", "scores": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "labels": [0, 0, 1, 0, 1, 1]},
    {"name": "noisy-200", "scores": None, "labels": None},
]
sc = np.round(np.concatenate([rng.normal(0.8, 0.08, 100), rng.normal(0.6, 0.1, 100)]), 2)
eer_sets[-1]["scores"] = [float(v) for v in sc]
eer_sets[-1]["labels"] = [1] * 100 + [0] * 100
eer_refs = []
for s in eer_sets:
    e, t = eer_ref(s["scores"], s["labels"])
    eer_refs.append({**s, "eer": e, "threshold": t, "at": rates_at(s["scores"], s["labels"], 0.8)})


# ---------------------------------------------------------------- Krippendorff's α
def alpha_pairwise(matrix, level):
    """Pairwise-disagreement form: D_o over within-unit pairs, D_e over all pairable values."""
    units = [[v for v in col if v is not None] for col in zip(*matrix)]
    units = [u for u in units if len(u) >= 2]
    allv = [v for u in units for v in u]
    n = len(allv)
    cats = sorted(set(allv))
    freq = {c: allv.count(c) for c in cats}

    def d2(a, b):
        if a == b:
            return 0.0
        if level == "nominal":
            return 1.0
        if level == "interval":
            return float(a - b) ** 2
        lo, hi = min(a, b), max(a, b)
        s = sum(freq[g] for g in cats if lo <= g <= hi)
        return (s - (freq[a] + freq[b]) / 2) ** 2

    do = sum(sum(d2(u[i], u[j]) for i in range(len(u)) for j in range(len(u)) if i != j) / (len(u) - 1) for u in units) / n
    de = sum(d2(a, b) for i, a in enumerate(allv) for j, b in enumerate(allv) if i != j) / (n * (n - 1))
    return 1 - do / de, len(units)


K2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]
rand_m = rng.integers(1, 6, size=(5, 30)).astype(object)
rand_m[rng.random((5, 30)) < 0.25] = None
RANDOM = [[None if v is None else int(v) for v in row] for row in rand_m]
agree = [[1, 2, 3, 3, 1, 2], [1, 2, 3, 3, 1, 2], [1, 2, None, 3, 1, 2]]
three = [[1, 2, 2, 3, 1, 4, 2], [1, 3, 2, 3, 2, 4, 2], [2, 3, 2, 3, 1, 4, 1]]  # complete, 3 raters
alpha_refs = []
for name, m in [("krippendorff2011", K2011), ("random-5x30-missing", RANDOM), ("perfect", agree), ("complete-3-raters", three)]:
    row = {"name": name, "matrix": m}
    for level in ("nominal", "ordinal", "interval"):
        a, used = alpha_pairwise(m, level)
        row[level] = a
        row["units_used"] = used
    alpha_refs.append(row)
alpha_refs[0]["published"] = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849}

# ---------------------------------------------------------------- Wilson, McNemar
wilson_refs = []
for k, n in [(0, 10), (3, 10), (50, 100), (377, 450), (449, 450)]:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    wilson_refs.append({"k": k, "n": n, "lo": float(ci.low), "hi": float(ci.high)})
mcnemar_refs = []
for b, c in [(0, 0), (3, 9), (10, 2), (7, 7), (30, 12)]:
    p = 1.0 if b + c == 0 else float(stats.binomtest(min(b, c), b + c, 0.5).pvalue)
    chi2 = 0.0 if b + c == 0 else (abs(b - c) - 1) ** 2 / (b + c)
    mcnemar_refs.append({"b": b, "c": c, "p_exact": p, "chi2": chi2,
                         "p_chi2": 1.0 if b + c == 0 else float(stats.chi2.sf(chi2, 1))})

os.makedirs(OUT, exist_ok=True)
refs = {"rank": rank_refs, "bt": bt_refs, "eer": eer_refs, "alpha": alpha_refs, "wilson": wilson_refs,
        "mcnemar": mcnemar_refs,
        "generated_by": f"scripts/stats-references.py with numpy {np.__version__}, scipy {__import__('scipy').__version__}, "
                        f"sklearn {__import__('sklearn').__version__}, R BradleyTerry2 {'yes' if shutil.which('Rscript') else 'no'}"}
with open(os.path.join(OUT, "references.json"), "w") as f:
    json.dump(refs, f, indent=1, sort_keys=True)
    f.write("\n")
# data files for the CLI tests
with open(os.path.join(OUT, "bt-four-mixed.jsonl"), "w") as f:
    for c in bt_sets[0]["comparisons"]:
        f.write(json.dumps(c) + "\n")
with open(os.path.join(OUT, "rank-n5-ties.json"), "w") as f:
    json.dump({"x": rank_sets[1]["x"], "y": rank_sets[1]["y"]}, f)
with open(os.path.join(OUT, "kripp-2011.json"), "w") as f:
    json.dump(K2011, f)
with open(os.path.join(OUT, "eer-ties.jsonl"), "w") as f:
    for s, l in zip(eer_sets[1]["scores"], eer_sets[1]["labels"]):
        f.write(json.dumps({"score": s, "label": l}) + "\n")
print(json.dumps({"alpha_2011": {k: alpha_refs[0][k] for k in ("nominal", "ordinal", "interval")},
                  "bt_r": [r.get("strengths_r") for r in bt_refs]}, indent=1))
