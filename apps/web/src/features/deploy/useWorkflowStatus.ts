import type { WorkflowStatus } from '@slipway/contract';
import { useEffect, useRef, useState } from 'react';
import { fetchWorkflowStatus, workflowStatusStreamUrl } from '../../api/workflow';
import { isDeploymentComplete, isDeploymentFailed } from './deployProgress';

const POLL_INTERVAL_MS = 2000;

function isStatus(value: unknown): value is WorkflowStatus {
  return Boolean(value) && typeof value === 'object' && 'state' in (value as object);
}

/** A `status` / `finished` message carries the status itself, or under `status` or `data`. */
function statusFromMessage(message: Record<string, unknown>): WorkflowStatus | null {
  for (const candidate of [message.status, message.data, message]) {
    if (isStatus(candidate) && Array.isArray((candidate as WorkflowStatus).steps)) return candidate;
  }
  return null;
}

/**
 * Live workflow status while `active`: the SSE stream (connected / status / finished / error),
 * with GET .../status/{id} for the first answer and as the fallback when the stream drops.
 */
export function useWorkflowStatus(sessionId: string, active: boolean) {
  const [status, setStatus] = useState<WorkflowStatus | null>(null);
  const [streamError, setStreamError] = useState<string | null>(null);
  const done = useRef(false);

  useEffect(() => {
    if (!active || !sessionId) return;
    done.current = false;
    let cancelled = false;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    const accept = (next: WorkflowStatus | null) => {
      if (cancelled || !next) return;
      setStatus(next);
      if (isDeploymentComplete(next) || isDeploymentFailed(next)) done.current = true;
    };

    const poll = async () => {
      accept(await fetchWorkflowStatus(sessionId));
      if (!cancelled && !done.current) pollTimer = setTimeout(() => void poll(), POLL_INTERVAL_MS);
    };

    void fetchWorkflowStatus(sessionId).then(accept);
    const source = new EventSource(workflowStatusStreamUrl(sessionId), { withCredentials: true });
    source.onmessage = (event) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(event.data) as Record<string, unknown>;
      } catch {
        return;
      }
      if (message.type === 'status') accept(statusFromMessage(message));
      else if (message.type === 'finished') {
        const final = statusFromMessage(message);
        if (final) accept(final);
        else void fetchWorkflowStatus(sessionId).then(accept);
        done.current = true;
        source.close();
      } else if (message.type === 'error') {
        if (typeof message.error === 'string') setStreamError(message.error);
        source.close();
        if (!done.current) void poll();
      }
    };
    source.onerror = () => {
      // The browser retries by itself unless the server refused; once closed, poll instead.
      if (source.readyState === EventSource.CLOSED && !done.current && !cancelled) void poll();
    };

    return () => {
      cancelled = true;
      source.close();
      if (pollTimer) clearTimeout(pollTimer);
    };
  }, [sessionId, active]);

  return { status, streamError };
}
