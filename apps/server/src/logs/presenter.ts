import type { WorkspaceLogEntry } from '@slipway/contract';
import type { StoredLogLine } from './logStore.js';

export function presentLogLine(line: StoredLogLine): WorkspaceLogEntry {
  return {
    timestamp: line.ts.toISOString(),
    service: line.service,
    message: line.line,
    source: line.source,
    container_id: line.containerId || null,
  };
}
