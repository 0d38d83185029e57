import type { ServerResponse } from 'node:http';

/** An issue comment as GitHub keeps it (a pull request's comments are its issue's). */
export interface StandinComment {
  id: number;
  issue: string;
  body: string;
  login: string;
  updates: number;
}

/** A commit status as GitHub keeps it: the newest per (sha, context) is the one shown. */
export interface StandinStatus {
  repo: string;
  sha: string;
  state: string;
  description: string | null;
  context: string;
  target_url: string | null;
}

interface WriteDeps {
  state: { comments: StandinComment[]; statuses: StandinStatus[] };
  send(response: ServerResponse, status: number, body: unknown): void;
  notFound(response: ServerResponse): void;
  nextId(): number;
}

/**
 * POST /repos/{o}/{r}/issues/{n}/comments (201), PATCH /repos/{o}/{r}/issues/comments/{id} (200, 404 for an
 * unknown id), POST /repos/{o}/{r}/statuses/{sha} (201): the shapes GitHub documents, trimmed of URLs.
 */
export function handlePullRequestWrites(
  { method, path, body, login }: { method: string; path: string; body: string; login: string },
  response: ServerResponse,
  { state, send, notFound, nextId }: WriteDeps,
): boolean {
  const commentJson = (comment: StandinComment) => ({
    id: comment.id,
    node_id: `IC_${comment.id}`,
    body: comment.body,
    user: { login: comment.login, id: 1, type: 'User' },
    author_association: 'NONE',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: new Date().toISOString(),
  });
  const create = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/);
  if (method === 'POST' && create) {
    const comment = {
      id: nextId(),
      issue: `${create[1]}/${create[2]}#${create[3]}`,
      body: (JSON.parse(body) as { body: string }).body,
      login,
      updates: 0,
    };
    state.comments.push(comment);
    send(response, 201, commentJson(comment));
    return true;
  }
  const edit = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/);
  if (method === 'PATCH' && edit) {
    const comment = state.comments.find((entry) => entry.id === Number(edit[3]));
    if (!comment) notFound(response);
    else {
      comment.body = (JSON.parse(body) as { body: string }).body;
      comment.updates++;
      send(response, 200, commentJson(comment));
    }
    return true;
  }
  const status = path.match(/^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]{40})$/);
  if (method === 'POST' && status) {
    const sent = JSON.parse(body) as {
      state: string;
      description?: string;
      context?: string;
      target_url?: string;
    };
    const entry = {
      repo: `${status[1]}/${status[2]}`,
      sha: status[3]!,
      state: sent.state,
      description: sent.description ?? null,
      context: sent.context ?? 'default',
      target_url: sent.target_url ?? null,
    };
    state.statuses.push(entry);
    send(response, 201, { id: nextId(), ...entry, creator: { login } });
    return true;
  }
  return false;
}
