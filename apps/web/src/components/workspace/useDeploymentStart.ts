import { useState } from 'react';
import { useNavigate } from 'react-router';
import { deployPath } from '../../lib/deployPath';
import type { RepoRef } from '../../lib/repoUrl';
import { newSessionId } from '../../lib/sessionId';

/**
 * Starting a deployment of a workspace from one of its screens (a rollback, a change of replicas): it starts under
 * a new session id and its progress screen opens; until then `starting` names what is starting, and a refusal is
 * kept in `error` in the server's words.
 */
export function useDeploymentStart() {
  const navigate = useNavigate();
  const [starting, setStarting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function start(
    what: string,
    repository: RepoRef,
    begin: (sessionId: string) => Promise<{ sessionId: string }>,
  ) {
    setStarting(what);
    setError(null);
    try {
      const { sessionId } = await begin(newSessionId());
      navigate(deployPath(repository.owner, repository.repo, sessionId));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setStarting(null);
    }
  }

  return { starting, error, start };
}
