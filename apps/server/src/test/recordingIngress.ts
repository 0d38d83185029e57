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
  const ingress: Ingress = {
    ...createDirectIngress(),
    servesCustomDomains: true,
    async setCustomHosts(workspaceId, hosts) {
      customHosts.set(workspaceId, hosts);
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
    emit: (event: CertificateEvent) => {
      for (const listener of listeners) listener(event);
    },
  };
}

export type RecordingIngress = ReturnType<typeof createRecordingIngress>;
