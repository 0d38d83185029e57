import { serverError } from './errors';

/**
 * Runs `request`; a failure is thrown again as an Error with the server's message, else `fallback`.
 * Beside errors.ts, not in it: errors.ts travels in the landing's first script, this only with the
 * screens that call it.
 */
export async function failingWith<T>(fallback: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw new Error(serverError(error) ?? fallback, { cause: error });
  }
}
