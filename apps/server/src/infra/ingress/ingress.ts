/** One published service: where the ingress proxy reaches it and which host port it sits on. */
export interface IngressTarget {
  service: string;
  upstream: string;
  hostPort: number;
  /** A service of several replicas: every replica's address (`upstream` first); the proxy balances among them. */
  upstreams?: string[];
}

/** A verified custom domain the proxy serves for one of a workspace's services. */
export interface CustomHost {
  service: string;
  /** Normalised (lower case, punycode, no trailing dot). */
  host: string;
  /** Also answer `www.{host}` (or, for a `www.` host, its apex) with a permanent redirect to `host`. */
  redirectWww: boolean;
}

/** How custom domains get certificates: on demand, each asked of Slipway first, from this ACME CA. */
export interface OnDemandTls {
  /** Caddy asks `{permissionUrl}?domain={name}` before it orders a certificate; only a 2xx lets it. */
  permissionUrl: string;
  acme: { directoryUrl: string; email?: string | undefined; caRootFile?: string | undefined };
}

/** The certificate the proxy served for a name. */
export interface ServedCertificate {
  issuer: string;
  notAfter: Date;
  /** The subject alternative names (DNS names) it covers. */
  names: string[];
}

/** What the proxy said about a certificate for a custom domain: obtained, or the CA's refusal. */
export type CertificateEvent =
  | { host: string; kind: 'obtained' }
  | {
      host: string;
      kind: 'failed';
      /** The CA's own words, on one line. */
      message: string;
      /**
       * The ACME problem type's last part when the CA gave one: `rateLimited`, `connection` (it could not reach
       * the host on port 80/443), `caa`, `dns`, `unauthorized`, `rejectedIdentifier`…
       */
      problem?: string | undefined;
      /** For a rate limit, when the CA said a new order may be placed. */
      retryAfter?: Date | undefined;
    };

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
  /** Whether it can serve custom domains with certificates (Caddy can; direct links cannot). */
  readonly servesCustomDomains: boolean;
  /**
   * Replaces the custom domains on the workspace's live route, in one update (none: removes them all). A
   * workspace with no route yet has nothing to change: its next publish includes them.
   */
  setCustomHosts(workspaceId: string, hosts: CustomHost[]): Promise<void>;
  /**
   * Handshakes with the proxy for `host` (SNI) and returns the certificate it serves — which makes the proxy
   * order one on demand if the permission endpoint allows it. Throws with the TLS error when none is served.
   */
  certificateFor(host: string): Promise<ServedCertificate>;
  /**
   * Calls `listener` with each certificate the proxy obtained or failed to obtain; returns the unsubscribe.
   * One process of a platform should listen: the proxy tells its latest listener only.
   */
  onCertificateEvent(listener: (event: CertificateEvent) => void): () => void;
  /** Stops listening to the proxy (the platform's shutdown); the routes stay. */
  close(): Promise<void>;
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
    servesCustomDomains: false,
    async setCustomHosts() {},
    async certificateFor() {
      throw new Error('Custom domains need the HTTPS ingress (Caddy): set CADDY_ADMIN_URL.');
    },
    onCertificateEvent() {
      return () => {};
    },
    async close() {},
  };
}
