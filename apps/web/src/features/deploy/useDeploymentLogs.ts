import { useCallback, useEffect, useRef, useState } from 'react';
import { type LogType, logStreamUrl } from '../../api/logs';
import { type LogLine, logLevelOf, parseStreamData } from '../../components/logs/logParsing';

/** Delay between closing one log stream and opening the other. */
export const SWITCH_DELAY_MS = 500;
/** After completion, live service logs start this much later. */
export const LIVE_LOGS_DELAY_MS = 1000;
const MAX_LINES = 2000;

let sequence = 0;
/** A line of the panel: one stream line, or the divider between the build and the service logs. */
function panelLine(parts: { timestamp: string; service: string; text: string; source: string }): LogLine {
  sequence += 1;
  return { id: sequence, ...parts, level: logLevelOf(parts.text), live: true };
}

/**
 * Build logs from 'deploy-application' (or 'verify-deployment' after a refresh), service logs
 * from 'post-deployment' and after completion, with the spec's delays.
 */
export function useDeploymentLogs(
  owner: string,
  repo: string,
  progress: { stepName: string | null; completed: boolean; active: boolean },
) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [logType, setLogType] = useState<LogType | null>(null);
  const source = useRef<EventSource | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const current = useRef<LogType | null>(null);

  const stop = useCallback(() => {
    source.current?.close();
    source.current = null;
    current.current = null;
    setLogType(null);
  }, []);

  const open = useCallback(
    (type: LogType) => {
      if (!owner || !repo) return;
      source.current?.close();
      current.current = type;
      setLogType(type);
      setLines((previous) => [
        ...previous,
        panelLine({
          timestamp: '',
          service: '',
          text: type === 'build' ? '--- Build logs ---' : '--- Service logs ---',
          source: 'divider',
        }),
      ]);
      const stream = new EventSource(logStreamUrl(owner, repo, type), { withCredentials: true });
      stream.onmessage = (event) => {
        const parsed = parseStreamData(String(event.data));
        if (!parsed) return;
        setLines((previous) => [...previous, panelLine(parsed)].slice(-MAX_LINES));
      };
      // The server ends a finished build's stream; reconnecting would replay its history.
      stream.onerror = () => stream.close();
      source.current = stream;
    },
    [owner, repo],
  );

  const switchTo = useCallback(
    (type: LogType, delay: number) => {
      if (current.current === type) return;
      if (timer.current) clearTimeout(timer.current);
      source.current?.close();
      source.current = null;
      current.current = type;
      timer.current = setTimeout(() => open(type), delay);
    },
    [open],
  );

  const { stepName, completed, active } = progress;
  useEffect(() => {
    if (!active) return;
    if (completed) {
      if (current.current !== 'service') switchTo('service', LIVE_LOGS_DELAY_MS);
      return;
    }
    if (stepName === 'deploy-application' && current.current === null) open('build');
    else if (stepName === 'verify-deployment' && current.current === null) open('build');
    else if (stepName === 'post-deployment') switchTo('service', SWITCH_DELAY_MS);
  }, [stepName, completed, active, open, switchTo]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      source.current?.close();
    },
    [],
  );

  return { lines, logType, stop, clear: () => setLines([]) };
}
