/** The deploy screen of a repository; with `sessionId`, following the deployment started under it. */
export const deployPath = (owner: string, repo: string, sessionId?: string) =>
  `/deploy/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}${sessionId ? `?sessionId=${sessionId}` : ''}`;
