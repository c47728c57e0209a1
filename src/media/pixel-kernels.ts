/**
 * Pixel loops in WebAssembly (src/media/wasm/pixels.c, built into pixels-module.ts by
 * scripts/build-wasm.sh): the owner of that module and of its memory. Each function computes
 * what the plain JavaScript loop it replaced computed, bit for bit (test/media/pixel-kernels.test.ts,
 * against those loops): the SSIM pass (quality.ts), the exact sum of squared differences (PSNR,
 * window.ts's luma MSE), planar YUV to RGB or 601 luma (yuv.ts), the shot detector's per-frame
 * sums (shot-features.ts). The Compass scan runs them on
 * every frame it compares; they are 3–10× the speed of the JavaScript.
 *
 * Memory: one instance per thread, made on first use. Its memory holds a region per operand,
 * each grown (doubling) to the largest seen and never shrunk — about 18 bytes a pixel of the
 * largest image compared with SSIM (its statistics 16, the two images 1 each), up to twice that
 * while sizes grow, and 3–4 bytes a pixel of the largest frame converted. Inputs are copied in and
 * results out on every call, except an SSIM reference's image and statistics: they stay in memory
 * from `ssimStatistics` or the last comparison with them, and are copied in only when a
 * comparison uses another reference — so a reference must not be changed once made. An input of
 * the wrong length is kfbench's own fault (an internal error), never read short.
 */
import { BackendError, InternalError } from '../errors.js';
import { WASM_BASE64 } from './wasm/pixels-module.js';

/** The part of the WebAssembly JS API used here (the ES library kfbench compiles against has no types for it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const WebAssemblyApi = Reflect.get(globalThis, 'WebAssembly') as WasmApi;

interface Exports {
  __heap_base: { value: number };
  ssim_reference(
    x: number,
    w: number,
    h: number,
    k: number,
    vx: number,
    vxx: number,
    my: number,
    eyy: number,
  ): void;
  ssim_sum(
    x: number,
    y: number,
    w: number,
    h: number,
    k: number,
    my: number,
    eyy: number,
    C1: number,
    C2: number,
    vx: number,
    vxx: number,
    vxy: number,
    map: number,
  ): number;
  sq_diff_sum(a: number, b: number, n: number): number;
  yuv_convert(
    data: number,
    W: number,
    H: number,
    sub: number,
    top: number,
    w: number,
    h: number,
    ty: number,
    trv: number,
    tgu: number,
    tgv: number,
    tbu: number,
    luma: number,
    out: number,
  ): void;
  frame_features(
    d: number,
    width: number,
    height: number,
    cols: number,
    rows: number,
    hist: number,
    acc: number,
    sums: number,
  ): void;
}

const RADIUS = 5;

let module: { exports: Exports; memory: WasmMemory; top: number } | undefined;
const regions = new Map<string, { at: number; bytes: number }>();

function kernel(): { exports: Exports; memory: WasmMemory; top: number } {
  if (module) return module;
  const memory = new WebAssemblyApi.Memory({ initial: 2 });
  const compiled = new WebAssemblyApi.Module(Buffer.from(WASM_BASE64, 'base64'));
  const exports = new WebAssemblyApi.Instance(compiled, { env: { memory } }).exports as Exports;
  module = { exports, memory, top: align16(exports.__heap_base.value) };
  return module;
}

const align16 = (n: number) => Math.ceil(n / 16) * 16;

function expectLength(what: string, data: ArrayLike<number>, length: number): void {
  if (data.length !== length)
    throw new InternalError(`pixel kernel: ${what} has ${data.length} values, expected ${length}`);
}

/** The byte offset of region `name`, at least `bytes` long (moved, and the memory grown, when too small). */
function region(name: string, bytes: number): number {
  const r = regions.get(name);
  if (r && r.bytes >= bytes) return r.at;
  const k = kernel();
  const size = align16(Math.max(bytes, 2 * (r?.bytes ?? 0)));
  const at = k.top;
  const pages = Math.ceil((at + size) / 65536) - k.memory.buffer.byteLength / 65536;
  try {
    if (pages > 0) k.memory.grow(pages);
  } catch (e) {
    throw new BackendError(
      `the pixel kernels' memory cannot grow to ${Math.ceil((at + size) / 2 ** 20)} MB`,
      {
        cause: e,
      },
    );
  }
  k.top = at + size;
  regions.set(name, { at, bytes: size });
  return at;
}

let views: { buffer: ArrayBuffer; u8: Uint8Array; f64: Float64Array } | undefined;

/** Views of the whole memory (made again after it grew: growing detaches the old buffer). */
function heap(): { u8: Uint8Array; f64: Float64Array } {
  const buffer = kernel().memory.buffer;
  if (views?.buffer !== buffer) views = { buffer, u8: new Uint8Array(buffer), f64: new Float64Array(buffer) };
  return views!;
}

/** Bytes copied into region `name`; its offset. */
function put(name: string, data: Uint8Array): number {
  const at = region(name, data.length);
  heap().u8.set(data, at);
  return at;
}

/** Scratch rows of the SSIM pass: four of w doubles. */
function ssimRows(w: number): { vx: number; vxx: number; vxy: number; map: number } {
  const at = region('ssim.rows', 4 * 8 * w);
  return { vx: at, vxx: at + 8 * w, vxy: at + 16 * w, map: at + 24 * w };
}

/**
 * An image's own SSIM statistics over the valid region (its Gaussian-filtered mean and mean
 * square, (w−10)·(h−10) values each, row-major). `taps`: the kernel from the centre out (6 values).
 */
export function ssimStatistics(
  x: Uint8Array,
  w: number,
  h: number,
  taps: Float64Array,
): { my: Float64Array; eyy: Float64Array } {
  expectLength('the image', x, w * h);
  const n = (w - 2 * RADIUS) * (h - 2 * RADIUS);
  // every region first: making one may grow the memory, which detaches views made before
  const where = ssimReferenceRegions(w, h);
  const rows = ssimRows(w);
  const { u8, f64 } = heap();
  u8.set(x, where.y);
  f64.set(taps, where.taps / 8);
  kernel().exports.ssim_reference(where.y, w, h, where.taps, rows.vx, rows.vxx, where.my, where.eyy);
  const stats = {
    my: f64.slice(where.my / 8, where.my / 8 + n),
    eyy: f64.slice(where.eyy / 8, where.eyy / 8 + n),
  };
  // the next comparison is most often with this reference: it is in memory already
  loaded = { y: x, my: stats.my, taps, at: where.key };
  return stats;
}

/** Where a reference lies: its image, statistics and taps. */
function ssimReferenceRegions(w: number, h: number) {
  const n = (w - 2 * RADIUS) * (h - 2 * RADIUS);
  const y = region('ssim.y', w * h);
  const my = region('ssim.my', 8 * n);
  const eyy = region('ssim.eyy', 8 * n);
  const taps = region('ssim.taps', 48);
  return { y, my, eyy, taps, key: `${y},${my},${eyy},${taps}` };
}

/** The reference in memory (its arrays by identity, and where they were put). */
let loaded: { y: Uint8Array; my: Float64Array; taps: Float64Array; at: string } | undefined;

/**
 * The sum of x's SSIM map against y, whose statistics are `ref` (`ssimStatistics` of y with the
 * same taps), over the valid region in row-major order.
 */
export function ssimMapSum(
  x: Uint8Array,
  y: Uint8Array,
  ref: { my: Float64Array; eyy: Float64Array },
  w: number,
  h: number,
  taps: Float64Array,
  C1: number,
  C2: number,
): number {
  const n = (w - 2 * RADIUS) * (h - 2 * RADIUS);
  expectLength('the image', x, w * h);
  expectLength('the reference image', y, w * h);
  expectLength("the reference's means", ref.my, n);
  expectLength("the reference's mean squares", ref.eyy, n);
  const where = ssimReferenceRegions(w, h);
  if (loaded?.y !== y || loaded.my !== ref.my || loaded.taps !== taps || loaded.at !== where.key) {
    const { u8, f64 } = heap();
    u8.set(y, where.y);
    f64.set(ref.my, where.my / 8);
    f64.set(ref.eyy, where.eyy / 8);
    f64.set(taps, where.taps / 8);
    loaded = { y, my: ref.my, taps, at: where.key };
  }
  const xa = put('ssim.x', x);
  const rows = ssimRows(w);
  return kernel().exports.ssim_sum(
    xa,
    where.y,
    w,
    h,
    where.taps,
    where.my,
    where.eyy,
    C1,
    C2,
    rows.vx,
    rows.vxx,
    rows.vxy,
    rows.map,
  );
}

/** Σ (a[i] − b[i])² of two arrays of one length, exactly (an integer below 2⁵³). */
export function sqDiffSum(a: Uint8Array, b: Uint8Array): number {
  expectLength('the second array', b, a.length);
  const pa = put('sq.a', a);
  const pb = put('sq.b', b);
  return kernel().exports.sq_diff_sum(pa, pb, a.length);
}

/** yuv.ts's per-matrix tables: full-range luma and the four chroma terms for every 8-bit code. */
export interface YuvTables {
  y: Float64Array;
  rv: Float64Array;
  gu: Float64Array;
  gv: Float64Array;
  bu: Float64Array;
}

let loadedTables: { tables: YuvTables; at: number } | undefined;

/**
 * The w×h rectangle at (0, `top`) of a planar frame (Y plane W×H, then U and V at 1/`sub` of each
 * side, rounded up) as RGB, or as 601 luma of that RGB with `luma`: R = Y + rv[v],
 * G = (Y + gu[u]) + gv[v], B = Y + bu[u], each rounded half to even and clamped to 0–255 (a
 * Uint8ClampedArray's store), luma PIL's fixed point of them.
 */
export function yuvConvert(
  frame: { width: number; height: number; sub: 1 | 2; data: Uint8Array },
  top: number,
  w: number,
  h: number,
  tables: YuvTables,
  luma: boolean,
): Uint8Array {
  const { width: W, height: H, sub } = frame;
  const planar = W * H + 2 * Math.ceil(W / sub) * Math.ceil(H / sub);
  if (frame.data.length < planar || w > W || top < 0 || top % sub !== 0 || top + h > H)
    throw new InternalError(
      `pixel kernel: a ${w}×${h} rectangle at row ${top} of a ${W}×${H} frame (1/${sub} chroma) of ${frame.data.length} bytes`,
    );
  const t = region('yuv.tables', 5 * 256 * 8);
  if (loadedTables?.tables !== tables || loadedTables.at !== t) {
    const { f64 } = heap();
    [tables.y, tables.rv, tables.gu, tables.gv, tables.bu].forEach((a, i) => {
      f64.set(a, t / 8 + 256 * i);
    });
    loadedTables = { tables, at: t };
  }
  const data = put('yuv.frame', frame.data.subarray(0, planar));
  const bytes = luma ? w * h : 3 * w * h;
  const out = region('yuv.out', bytes);
  const T = (i: number) => t + 256 * 8 * i;
  kernel().exports.yuv_convert(data, W, H, sub, top, w, h, T(0), T(1), T(2), T(3), T(4), luma ? 1 : 0, out);
  return heap().u8.slice(out, out + bytes);
}

/**
 * The shot detector's per-frame sums over an RGB image, in one pass: Y/Cb/Cr histograms of `bins`
 * bins each (16-bit counts), the luma summed per thumbnail cell (`cellOfColumn[x] +
 * cellOfRow[y]`, `cells` of them), and R, G, B summed. The arithmetic is shot-features.ts's.
 */
export function frameFeatureSums(
  img: { width: number; height: number; data: Uint8Array },
  cellOfColumn: Uint8Array,
  cellOfRow: Uint16Array,
  cells: number,
): { hist: Uint16Array; acc: Float64Array; sums: [number, number, number] } {
  const { width, height } = img;
  expectLength('the image', img.data, 3 * width * height);
  expectLength('the column cells', cellOfColumn, width);
  expectLength('the row cells', cellOfRow, height);
  const d = put('feat.image', img.data);
  const cols = put('feat.cols', cellOfColumn);
  const rows = put('feat.rows', new Uint8Array(cellOfRow.buffer, cellOfRow.byteOffset, 2 * height));
  const hist = region('feat.hist', 2 * 96);
  const acc = region('feat.acc', 8 * cells);
  const sums = region('feat.sums', 24);
  const { u8, f64 } = heap();
  u8.fill(0, hist, hist + 2 * 96);
  f64.fill(0, acc / 8, acc / 8 + cells);
  kernel().exports.frame_features(d, width, height, cols, rows, hist, acc, sums);
  const out = heap();
  return {
    hist: new Uint16Array(out.u8.slice(hist, hist + 2 * 96).buffer),
    acc: out.f64.slice(acc / 8, acc / 8 + cells),
    sums: [out.f64[sums / 8]!, out.f64[sums / 8 + 1]!, out.f64[sums / 8 + 2]!],
  };
}
