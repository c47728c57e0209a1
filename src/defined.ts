/**
 * An object without its undefined values (issue 58 item 2): with `exactOptionalPropertyTypes`, an
 * optional property means absent, never `undefined`, so a caller that holds a value that may be
 * undefined passes `defined({ … })` rather than spreading a condition per property.
 */
type Defined<T> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

export function defined<T extends object>(o: T): Defined<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as Defined<T>;
}
