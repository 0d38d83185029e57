import { routeUrl } from './routeClient';

/** Build output of the deployment, or the running services' output. */
export type LogType = 'build' | 'service';

export const BUILD_INITIAL_LINES = 10;
export const SERVICE_INITIAL_LINES = 20;

/** SSE GET /api/logs/{owner}/{repo}/stream?log_type=&initial_lines=&follow=true */
export function logStreamUrl(owner: string, repo: string, logType: LogType): string {
  const params = new URLSearchParams({
    log_type: logType,
    initial_lines: String(logType === 'build' ? BUILD_INITIAL_LINES : SERVICE_INITIAL_LINES),
    follow: 'true',
  });
  return `${routeUrl('deploymentLogStream', { owner, repo })}?${params}`;
}
