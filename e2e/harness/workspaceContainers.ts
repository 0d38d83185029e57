import { execFileSync } from 'node:child_process';
import type { WorkspaceDetails } from '@slipway/contract';
import { apiCall } from './api.js';
import type { RunningBrowser } from './browser.js';

/** The id of the running container of `service` in `workspace`, as the workspace's details list it. */
export async function containerOf(
  browser: RunningBrowser,
  baseUrl: string,
  workspace: string,
  service: string,
): Promise<string> {
  const response = await apiCall(browser, baseUrl, 'GET', `/api/workspace-details/${workspace}`);
  if (!response.ok()) throw new Error(`workspace-details answered ${response.status()}`);
  const details = (await response.json()) as WorkspaceDetails;
  const container = details.containers.find((item) => item.service === service && item.state === 'running');
  if (!container) throw new Error(`${workspace} has no running container of ${service}`);
  return container.id;
}

/**
 * Runs a command in the running container of `service` (`docker exec`, an argument array, no shell of ours):
 * what a person with a shell on the VM does to the data behind Slipway's back. Answers its output, trimmed.
 */
export async function execIn(
  browser: RunningBrowser,
  baseUrl: string,
  workspace: string,
  service: string,
  command: string[],
): Promise<string> {
  const id = await containerOf(browser, baseUrl, workspace, service);
  return execFileSync('docker', ['exec', id, ...command], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}
