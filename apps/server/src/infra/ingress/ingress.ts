/** One published service: where the ingress proxy reaches it and which host port it sits on. */
export interface IngressTarget {
  service: string;
  upstream: string;
  hostPort: number;
}

/** Puts a workspace's services on the web and takes them off again. */
export interface Ingress {
  readonly kind: 'caddy' | 'direct';
  /** Returns the public URL of each service. */
  publish(workspace: { id: string; name: string }, targets: IngressTarget[]): Promise<Record<string, string>>;
  unpublish(workspaceId: string, services: string[]): Promise<void>;
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
  };
}
