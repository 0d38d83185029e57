import { isHttpError } from '../../api/errors';

/**
 * The spec's alert when the wizard's upload fails: 'Error uploading variables: ' plus the server's detail
 * ('Upload failed' if none), or plus the network error's message.
 */
export function uploadErrorText(error: unknown): string {
  let reason = error instanceof Error ? error.message : 'Upload failed';
  if (isHttpError<{ detail?: unknown }>(error) && error.response) {
    const detail = error.response.data?.detail;
    reason = typeof detail === 'string' && detail ? detail : 'Upload failed';
  }
  return `Error uploading variables: ${reason}`;
}
