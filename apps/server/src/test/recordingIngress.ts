import {
  type CertificateEvent,
  type CustomHost,
  createDirectIngress,
  type Ingress,
  type ServedCertificate,
} from '../infra/ingress/ingress.js';

/**
 * An ingress for tests where Caddy is not the point: the direct one (localhost links) that also "serves"
 * custom domains, recording the custom hosts of each workspace's route, answering `certificateFor` with a
 * certificate from "Test CA" (or failing while `issuing` is false), and emitting the certificate events a test
 * asks for.
 */
export function createRecordingIngress() {
  const customHosts = new Map<string, CustomHost[]>();
  const listeners = new Set<(event: CertificateEvent) => void>();
  const asked: string[] = [];
  const state = { issuing: true };
  /** Route writes running at once now, and at most so far (Caddy would refuse a write from a stale read). */
  const writes = { running: 0, most: 0 };
  const ingress: Ingress = {
    ...createDirectIngress(),
    servesCustomDomains: true,
    async setCustomHosts(workspaceId, hosts) {
      writes.running++;
      writes.most = Math.max(writes.most, writes.running);
      // A write takes a moment, as Caddy's read-modify-write does: writes that overlap show here.
      await new Promise((resolve) => setTimeout(resolve, 5));
      customHosts.set(workspaceId, hosts);
      writes.running--;
    },
    async certificateFor(host): Promise<ServedCertificate> {
      asked.push(host);
      if (!state.issuing) throw new Error(`tls: no certificate for ${host} yet`);
      return { issuer: 'Test CA', notAfter: new Date('2027-03-01T00:00:00.000Z'), names: [host] };
    },
    onCertificateEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    ingress,
    /** The hosts on each workspace's route, as last set. */
    customHosts,
    /** Every host a certificate was asked for, in order. */
    asked,
    state,
    writes,
    emit: (event: CertificateEvent) => {
      for (const listener of listeners) listener(event);
    },
  };
}

export type RecordingIngress = ReturnType<typeof createRecordingIngress>;
