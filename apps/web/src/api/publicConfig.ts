import type { PublicConfig } from '@slipway/contract';
import { useEffect, useState } from 'react';
import { lazyRouteClient } from './lazyClient';

let loading: Promise<PublicConfig | null> | undefined;

/** GET /api/public-config, once per page load: payment mode and the demo video URL. Null when the call fails. */
export function loadPublicConfig(): Promise<PublicConfig | null> {
  loading ??= lazyRouteClient()
    .then(({ callRoute }) => callRoute('publicConfig'))
    .catch((error: unknown) => {
      console.error('Failed to fetch the public configuration', error);
      return null;
    });
  return loading;
}

/**
 * The public configuration as React state. Not a TanStack Query hook: the landing page reads it, and
 * the landing's first JavaScript does not carry the query cache (screens that need it bring it).
 */
export function usePublicConfig(): { data: PublicConfig | null | undefined; isPending: boolean } {
  const [config, setConfig] = useState<PublicConfig | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void loadPublicConfig().then((loaded) => {
      if (current) setConfig(loaded);
    });
    return () => {
      current = false;
    };
  }, []);
  return { data: config, isPending: config === undefined };
}
