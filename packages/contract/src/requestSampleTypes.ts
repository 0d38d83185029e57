/** The shape of the route table's request samples (valid and invalid inputs per route). */
export interface Invalid {
  value: unknown;
  /** The first issue's message (the spec's text where it gives one). */
  message?: string;
}
export interface Samples {
  valid: unknown[];
  invalid: Invalid[];
}
export type RequestSamples = { body?: Samples; query?: Samples; params?: Samples };

/** A string one character over `length`: the sample just past a schema's limit. */
export const tooLong = (length: number) => 'a'.repeat(length + 1);
