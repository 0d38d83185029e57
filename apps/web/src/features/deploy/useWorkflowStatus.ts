import type { WorkflowStatus } from '@slipway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useWorkflowStatusQuery, workflowStatusKey, workflowStatusStreamUrl } from '../../api/workflow';
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
 * Live workflow status while `active`: the SSE stream (connected / status / finished / error) writes
 * into the status query, which makes the first GET .../status/{id} and polls it when the stream drops
 * before the deployment is over.
 */
export function useWorkflowStatus(sessionId: string, active: boolean) {
  const queryClient = useQueryClient();
  const [streamError, setStreamError] = useState<string | null>(null);
  const [stream, setStream] = useState<'open' | 'finished' | 'dropped'>('open');
  const enabled = active && Boolean(sessionId);
  const query = useWorkflowStatusQuery(sessionId, enabled, (current) =>
    stream === 'dropped' && !(current && (isDeploymentComplete(current) || isDeploymentFailed(current)))
      ? POLL_INTERVAL_MS
      : false,
  );

  useEffect(() => {
    if (!active || !sessionId) return;
    setStream('open');
    const queryKey = workflowStatusKey(sessionId);
    const accept = (next: WorkflowStatus | null) => {
      if (next) queryClient.setQueryData(queryKey, next);
    };
    // Polling starts at once, then every POLL_INTERVAL_MS while the deployment runs.
    const drop = () => {
      setStream((current) => (current === 'finished' ? current : 'dropped'));
      void queryClient.invalidateQueries({ queryKey });
    };

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
        else void queryClient.invalidateQueries({ queryKey });
        setStream('finished');
        source.close();
      } else if (message.type === 'error') {
        if (typeof message.error === 'string') setStreamError(message.error);
        source.close();
        drop();
      }
    };
    source.onerror = () => {
      // The browser retries by itself unless the server refused; once closed, poll instead.
      if (source.readyState === EventSource.CLOSED) drop();
    };

    return () => source.close();
  }, [sessionId, active, queryClient]);

  return { status: query.data ?? null, streamError };
}
