import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

export interface StandinInstallation {
  id: number;
  account: string;
  repos: string[];
  users: string[];
}

/** An installation token as GitHub scopes it: one installation, the repository names it was asked for. */
export interface StandinInstallationToken {
  installationId: number;
  repositories: string[];
  permissions: Record<string, string>;
}

interface InstallationDeps {
  installations: StandinInstallation[];
  installationTokens: Map<string, StandinInstallationToken>;
  validAppJwt(authorization: string | undefined): boolean;
  installationJson(installation: StandinInstallation): unknown;
  send(response: ServerResponse, status: number, body: unknown): void;
  notFound(response: ServerResponse): void;
}

/**
 * The GitHub App's side: `POST /app/installations/{id}/access_tokens` and `GET /repos/{o}/{r}/installation`, both
 * signed with the App's JWT (401 otherwise), as GitHub documents them. Answers whether it handled the request.
 */
export function handleAppInstallationRequests(
  {
    method,
    path,
    body,
    authorization,
  }: { method: string; path: string; body: string; authorization?: string },
  response: ServerResponse,
  deps: InstallationDeps,
): boolean {
  const tokenInstallation = path.match(/^\/app\/installations\/(\d+)\/access_tokens$/);
  const repoInstallation = path.match(/^\/repos\/([^/]+)\/([^/]+)\/installation$/);
  if (!(method === 'POST' && tokenInstallation) && !(method === 'GET' && repoInstallation)) return false;
  if (!deps.validAppJwt(authorization)) {
    deps.send(response, 401, { message: 'A JSON web token could not be decoded' });
    return true;
  }
  if (repoInstallation) {
    const fullName = `${decodeURIComponent(repoInstallation[1]!)}/${decodeURIComponent(repoInstallation[2]!)}`;
    const installation = deps.installations.find((entry) => entry.repos.includes(fullName));
    if (installation) deps.send(response, 200, deps.installationJson(installation));
    else deps.notFound(response);
    return true;
  }
  const installation = deps.installations.find((entry) => entry.id === Number(tokenInstallation![1]));
  if (!installation) {
    deps.notFound(response);
    return true;
  }
  const requested = body
    ? (JSON.parse(body) as { repositories?: string[]; permissions?: Record<string, string> })
    : {};
  const permissions = requested.permissions ?? { contents: 'read', metadata: 'read' };
  const token = `ghs_${randomBytes(12).toString('hex')}`;
  deps.installationTokens.set(token, {
    installationId: installation.id,
    repositories: requested.repositories ?? [],
    permissions,
  });
  deps.send(response, 201, {
    token,
    expires_at: new Date(Date.now() + 3600_000).toISOString(),
    permissions,
    repository_selection: 'selected',
  });
  return true;
}

/**
 * May this installation token write on `{owner}/{repo}`? Its installation must cover the repository, the token
 * must have been scoped to it (or to all of the installation's), with write access to `permission`.
 */
export function installationTokenMayWrite(
  token: StandinInstallationToken,
  installations: StandinInstallation[],
  fullName: string,
  permission: string,
): boolean {
  const installation = installations.find((entry) => entry.id === token.installationId);
  const repo = fullName.split('/')[1] ?? '';
  return Boolean(
    installation?.repos.includes(fullName) &&
      (token.repositories.length === 0 || token.repositories.includes(repo)) &&
      token.permissions[permission] === 'write',
  );
}
