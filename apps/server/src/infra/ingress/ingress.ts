/** One published service: where the ingress proxy reaches it and which host port it sits on. */
export interface IngressTarget {
  service: string;
  upstream: string;
  hostPort: number;
}

/** Puts a workspace's services on the web and takes them off again. */
export interface Ingress {
  readonly kind: 'caddy' | 'direct';
  /**
   * Replaces the workspace's routes with these, in one update; returns the public URL of each service. A
   * service keeps the URL given in `currentUrls` (so a redeploy or a restore never changes a user's URL).
   */
  publish(
    workspace: { id: string; name: string },
    targets: IngressTarget[],
    currentUrls?: Record<string, string>,
  ): Promise<Record<string, string>>;
  /** Removes every route of the workspace. */
  unpublish(workspaceId: string): Promise<void>;
  /** Which of these workspaces have no routes in the proxy (it restarted or lost its configuration). */
  missing(workspaceIds: string[]): Promise<string[]>;
  /** How many requests the proxy has in flight to these upstreams (0 without a proxy). */
  inFlight(upstreams: string[]): Promise<number>;
}

/** Without Caddy the services are only on this machine: `http://localhost:{port}` links. */
export function createDirectIngress(): Ingress {
  return {
    kind: 'direct',
    async publish(_workspace, targets) {
      const urls: Record<string, string> = {};
      for (const target of targets) urls[target.service] ??= `http://localhost:${target.hostPort}`;
      return urls;
    },
    async unpublish() {},
    async inFlight() {
      return 0;
    },
    async missing() {
      return [];
    },
  };
}
