// Pixel loops of src/media in WebAssembly (128-bit SIMD where it pays), each computing what the
// plain JavaScript loop computed, bit for bit (test/media/pixel-kernels.test.ts holds them to it):
//  - the SSIM pass of quality.ts: Gaussian-filtered local statistics along the column (11 taps,
//    folded), then along the row, and the SSIM map summed row by row, with the same operations in
//    the same order as the plain loop over t = 1…5 (sums and products of 8-bit values in 32-bit
//    integer lanes are exact, as in JavaScript numbers; no fused multiply-add: -ffp-contract=off);
//  - the exact sum of squared differences of two byte arrays (PSNR, window.ts's luma MSE);
//  - the shot detector's per-frame histogram, thumbnail and colour sums (shot-features.ts).
// Built by scripts/build-wasm.sh (Debian clang and lld) into pixels-module.ts, committed.
#include <stdint.h>
#include <wasm_simd128.h>

#define R 5
#define INLINE static inline __attribute__((always_inline))

// four columns as two pairs of doubles
typedef struct {
  v128_t lo, hi;
} quad;

// four bytes as four 32-bit lanes
INLINE v128_t load4(const uint8_t *p) {
  return wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_v128_load32_zero(p)));
}

INLINE quad widen(v128_t v) {
  quad q = {wasm_f64x2_convert_low_i32x4(v), wasm_f64x2_convert_low_i32x4(wasm_i32x4_shuffle(v, v, 2, 3, 0, 1))};
  return q;
}

INLINE quad mul(v128_t k, quad a) {
  quad q = {wasm_f64x2_mul(k, a.lo), wasm_f64x2_mul(k, a.hi)};
  return q;
}

// a + k·b
INLINE quad add_mul(quad a, v128_t k, quad b) {
  quad q = {wasm_f64x2_add(a.lo, wasm_f64x2_mul(k, b.lo)), wasm_f64x2_add(a.hi, wasm_f64x2_mul(k, b.hi))};
  return q;
}

INLINE quad times(quad a, quad b) {
  quad q = {wasm_f64x2_mul(a.lo, b.lo), wasm_f64x2_mul(a.hi, b.hi)};
  return q;
}

INLINE void store(double *p, quad q) {
  wasm_v128_store(p, q.lo);
  wasm_v128_store(p + 2, q.hi);
}

// One column's vertical taps (the columns the SIMD loop leaves over): vx, vxx and, with y, vxy.
INLINE void column(const uint8_t *x, const uint8_t *y, int i, int w, const double *k, double *vx, double *vxx,
                   double *vxy) {
  const int xm = x[i];
  double a = k[0] * xm, b = k[0] * xm * xm, d = y ? k[0] * xm * y[i] : 0;
  for (int t = 1; t <= R; t++) {
    const int u = x[i - t * w], dn = x[i + t * w];
    a = a + k[t] * (double)(u + dn);
    b = b + k[t] * (double)(u * u + dn * dn);
    if (y) d = d + k[t] * (double)(u * y[i - t * w] + dn * y[i + t * w]);
  }
  *vx = a;
  *vxx = b;
  if (y) *vxy = d;
}

// The vertical taps of the output row centred on row `mid`, every column: x's mean (vx), mean
// square (vxx) and, with y, the cross term (vxy).
INLINE void vertical(const uint8_t *x, const uint8_t *y, int w, int mid, const double *k, double *vx, double *vxx,
                     double *vxy) {
  v128_t kk[R + 1];
  for (int t = 0; t <= R; t++) kk[t] = wasm_f64x2_splat(k[t]);
  int c = 0;
  for (; c + 4 <= w; c += 4) {
    const uint8_t *p = x + mid + c;
    const uint8_t *q = y + mid + c;
    const quad xm = widen(load4(p));
    quad a = mul(kk[0], xm);
    quad b = times(mul(kk[0], xm), xm);
    quad d = a;
    if (y) d = times(mul(kk[0], xm), widen(load4(q)));
    for (int t = 1; t <= R; t++) {
      const v128_t u = load4(p - t * w), dn = load4(p + t * w);
      a = add_mul(a, kk[t], widen(wasm_i32x4_add(u, dn)));
      b = add_mul(b, kk[t], widen(wasm_i32x4_add(wasm_i32x4_mul(u, u), wasm_i32x4_mul(dn, dn))));
      if (y)
        d = add_mul(d, kk[t],
                    widen(wasm_i32x4_add(wasm_i32x4_mul(u, load4(q - t * w)), wasm_i32x4_mul(dn, load4(q + t * w)))));
    }
    store(vx + c, a);
    store(vxx + c, b);
    if (y) store(vxy + c, d);
  }
  for (; c < w; c++) column(x, y, mid + c, w, k, vx + c, vxx + c, vxy + c);
}

// The row taps at column c.
INLINE double row(const double *v, int c, const double *k) {
  return k[0] * v[c] + k[1] * (v[c - 1] + v[c + 1]) + k[2] * (v[c - 2] + v[c + 2]) + k[3] * (v[c - 3] + v[c + 3]) +
         k[4] * (v[c - 4] + v[c + 4]) + k[5] * (v[c - 5] + v[c + 5]);
}

// x's own statistics over the valid region (w−10 × h−10, row-major) into my and eyy. `k`: the
// kernel's taps from the centre out; vx, vxx: scratch rows of w doubles.
void ssim_reference(const uint8_t *x, int w, int h, const double *k, double *vx, double *vxx, double *my,
                    double *eyy) {
  const int oh = h - 2 * R, ow = w - 2 * R;
  for (int r = 0; r < oh; r++) {
    vertical(x, 0, w, (r + R) * w, k, vx, vxx, 0);
    double *m = my + r * ow - R, *e = eyy + r * ow - R;
    for (int c = R; c < ow + R; c++) {
      m[c] = row(vx, c, k);
      e[c] = row(vxx, c, k);
    }
  }
}

// The sum of x's SSIM map against y, whose statistics are my and eyy (ssim_reference), over the
// valid region in row-major order. vx, vxx, vxy, map: scratch rows of w doubles.
double ssim_sum(const uint8_t *x, const uint8_t *y, int w, int h, const double *k, const double *my,
                const double *eyy, double C1, double C2, double *vx, double *vxx, double *vxy, double *map) {
  const int oh = h - 2 * R, ow = w - 2 * R;
  double sum = 0;
  for (int r = 0; r < oh; r++) {
    vertical(x, y, w, (r + R) * w, k, vx, vxx, vxy);
    const double *pm = my + r * ow - R, *pe = eyy + r * ow - R;
    for (int c = R; c < ow + R; c++) {
      const double mx = row(vx, c, k), exx = row(vxx, c, k);
      const double m = pm[c], e = pe[c];
      const double exy = row(vxy, c, k);
      const double varx = exx - mx * mx, vary = e - m * m, cov = exy - mx * m;
      map[c] = ((2 * mx * m + C1) * (2 * cov + C2)) / ((mx * mx + m * m + C1) * (varx + vary + C2));
    }
    for (int c = R; c < ow + R; c++) sum += map[c];
  }
  return sum;
}

// The sum of squared differences of two byte arrays, exactly (a 64-bit integer total, returned as
// a double: exact below 2^53, i.e. for any image under 10^11 pixels).
double sq_diff_sum(const uint8_t *a, const uint8_t *b, int n) {
  int64_t total = 0;
  int i = 0;
  while (i + 16 <= n) {
    // each lane gains at most 4·255² a step: 2048 steps stay below 2^31
    v128_t acc = wasm_i32x4_splat(0);
    for (int s = 0; s < 2048 && i + 16 <= n; s++, i += 16) {
      const v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
      const v128_t lo = wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(va), wasm_u16x8_extend_low_u8x16(vb));
      const v128_t hi = wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(va), wasm_u16x8_extend_high_u8x16(vb));
      acc = wasm_i32x4_add(acc, wasm_i32x4_add(wasm_i32x4_dot_i16x8(lo, lo), wasm_i32x4_dot_i16x8(hi, hi)));
    }
    total += (int64_t)wasm_i32x4_extract_lane(acc, 0) + wasm_i32x4_extract_lane(acc, 1) +
             wasm_i32x4_extract_lane(acc, 2) + wasm_i32x4_extract_lane(acc, 3);
  }
  for (; i < n; i++) {
    const int d = a[i] - b[i];
    total += d * d;
  }
  return (double)total;
}

// The shot detector's per-frame sums over an RGB frame (shot-features.ts), in one pass, pixels in
// row order: the Y, Cb, Cr histograms (32 bins each, 16-bit counters that wrap as a Uint16Array
// does), the luma summed per cell of the 24×14 thumbnail (`cell`: each pixel's cell, from the
// row's and the column's; the same luma expression as the histogram's), and R, G, B summed.
void frame_features(const uint8_t *d, int width, int height, const uint8_t *cols, const uint16_t *rows,
                    uint16_t *hist, double *acc, double *sums) {
  double sr = 0, sg = 0, sb = 0;
  for (int y = 0, j = 0; y < height; y++) {
    const int row = rows[y];
    for (int x = 0; x < width; x++, j += 3) {
      const int r = d[j], g = d[j + 1], b = d[j + 2];
      const double l = 0.299 * r + 0.587 * g + 0.114 * b;
      const double cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      const double cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      const int lb = (int)(l * 32) >> 8, cbb = (int)(cb * 32) >> 8, crb = (int)(cr * 32) >> 8;
      hist[lb < 31 ? lb : 31] += 1;
      hist[32 + (cbb < 0 ? 0 : cbb > 31 ? 31 : cbb)] += 1;
      hist[64 + (crb < 0 ? 0 : crb > 31 ? 31 : crb)] += 1;
      acc[row + cols[x]] += l;
      sr += r;
      sg += g;
      sb += b;
    }
  }
  sums[0] = sr;
  sums[1] = sg;
  sums[2] = sb;
}
