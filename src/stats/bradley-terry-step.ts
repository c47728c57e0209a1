/**
 * The Newton step of the Bradley–Terry fit without a dense Hessian: H = L + 1·1ᵀ + c·I, where L
 * is the graph Laplacian with weight h_e on each compared pair (i, j), solved by conjugate
 * gradients with a Jacobi (diagonal) preconditioner. H is symmetric positive definite (1·1ᵀ fixes
 * the direction the likelihood is flat along), so CG converges; every product H·v costs
 * O(items + pairs). The residual is driven to 1e-12 of ‖g‖, so the step equals the Cholesky
 * solve it replaces to well within the fits' 1e-11 gradient tolerance.
 */
interface Edge {
  i: number;
  j: number;
}

function multiply(pairs: readonly Edge[], h: Float64Array, diag: Float64Array, c: number, v: Float64Array) {
  const n = v.length;
  let sum = 0;
  for (let k = 0; k < n; k++) sum += v[k]!;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) out[k] = (diag[k]! + c) * v[k]! + sum;
  for (let e = 0; e < pairs.length; e++) {
    const { i, j } = pairs[e]!;
    out[i]! -= h[e]! * v[j]!;
    out[j]! -= h[e]! * v[i]!;
  }
  return out;
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
};

/** x with H x = g (H as above: `h` per pair, `diag` the Laplacian's diagonal, `c` the ridge term). */
export function solveSparseNewtonStep(
  pairs: readonly Edge[],
  h: Float64Array,
  diag: Float64Array,
  c: number,
  g: Float64Array,
): Float64Array {
  const n = g.length;
  const pre = diag.map((d) => 1 / (d + c + 1));
  const x = new Float64Array(n);
  const r = Float64Array.from(g);
  const z = r.map((v, k) => v * pre[k]!);
  const p = Float64Array.from(z);
  let rz = dot(r, z);
  const stop = 1e-24 * dot(g, g);
  for (let it = 0; it < 10 * n + 100 && dot(r, r) > stop; it++) {
    const Ap = multiply(pairs, h, diag, c, p);
    const alpha = rz / dot(p, Ap);
    for (let k = 0; k < n; k++) {
      x[k]! += alpha * p[k]!;
      r[k]! -= alpha * Ap[k]!;
    }
    for (let k = 0; k < n; k++) z[k] = r[k]! * pre[k]!;
    const next = dot(r, z);
    const beta = next / rz;
    rz = next;
    for (let k = 0; k < n; k++) p[k] = z[k]! + beta * p[k]!;
  }
  return x;
}
