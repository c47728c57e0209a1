/** Small dense linear algebra for the Newton fits (Bradley–Terry, logistic regression). */
import { BadInputError } from '../errors.js';

/** Solve A x = y for symmetric positive definite A by Cholesky. */
export function solveSpd(A: Float64Array[], y: Float64Array): Float64Array {
  const n = y.length;
  const L = A.map(() => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i]![j]!;
      for (let k = 0; k < j; k++) s -= L[i]![k]! * L[j]![k]!;
      if (i === j) {
        if (s <= 0)
          throw new BadInputError('matrix is not positive definite (is the comparison graph connected?)');
        L[i]![i] = Math.sqrt(s);
      } else L[i]![j] = s / L[j]![j]!;
    }
  }
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = y[i]!;
    for (let k = 0; k < i; k++) s -= L[i]![k]! * z[k]!;
    z[i] = s / L[i]![i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < n; k++) s -= L[k]![i]! * x[k]!;
    x[i] = s / L[i]![i]!;
  }
  return x;
}
