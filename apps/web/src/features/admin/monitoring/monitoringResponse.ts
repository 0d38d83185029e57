import type { CadvisorMachineInfo, UnansweredContainer } from '@slipway/contract';
import type { RawResponse } from '../../../api/admin';
import { containerCandidates } from './containerMetrics';

export const HTML_INSTEAD_OF_JSON =
  'Admin proxy returned HTML instead of JSON - check admin authentication and cAdvisor connection';
export const INVALID_FORMAT = 'Invalid response format from admin proxy';
export const MACHINE_NOT_JSON = 'Machine API returned non-JSON response';

const ok = (status: number) => status >= 200 && status < 300;
const looksLikeHtml = (response: RawResponse) =>
  response.contentType.includes('text/html') || /^\s*<(!doctype|html)/i.test(response.body);

function parseJson(body: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(body) };
  } catch {
    return null;
  }
}

/** The server's `error` text from a JSON error body, else the body itself (shortened). */
function errorText(body: string): string {
  const parsed = parseJson(body)?.value;
  if (typeof parsed === 'object' && parsed !== null && 'error' in parsed) {
    const error = (parsed as { error: unknown }).error;
    if (typeof error === 'string' && error) return error;
  }
  const text = body.trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export function parseMachineResponse(response: RawResponse): CadvisorMachineInfo {
  if (!ok(response.status)) throw new Error(`Machine API error: HTTP ${response.status}`);
  const parsed = looksLikeHtml(response) ? null : parseJson(response.body);
  if (!parsed || typeof parsed.value !== 'object' || parsed.value === null) throw new Error(MACHINE_NOT_JSON);
  return parsed.value as CadvisorMachineInfo;
}

/** The containers the Docker Engine did not answer about (Slipway's `/containers`, on its root); none elsewhere. */
export function unansweredIn(response: RawResponse): UnansweredContainer[] {
  const root = parseJson(response.body)?.value as { unanswered?: unknown } | undefined;
  if (!Array.isArray(root?.unanswered)) return [];
  return root.unanswered.filter(
    (entry): entry is UnansweredContainer =>
      typeof entry?.id === 'string' && typeof entry.name === 'string' && typeof entry.sentence === 'string',
  );
}

export function parseContainersResponse(response: RawResponse): unknown[] {
  if (!ok(response.status)) throw new Error(`HTTP ${response.status}: ${errorText(response.body)}`);
  if (looksLikeHtml(response)) throw new Error(HTML_INSTEAD_OF_JSON);
  const parsed = parseJson(response.body);
  const candidates = parsed ? containerCandidates(parsed.value) : null;
  if (!candidates) throw new Error(INVALID_FORMAT);
  return candidates;
}
