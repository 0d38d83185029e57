import type { PublicConfig } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { lazyApi } from './lazyClient';

/** GET /api/public-config: payment mode and the demo video URL. Null when the call fails. */
export async function fetchPublicConfig(): Promise<PublicConfig | null> {
  try {
    const { data } = await (await lazyApi()).get<PublicConfig>('/api/public-config');
    return data;
  } catch (error) {
    console.error('Failed to fetch the public configuration', error);
    return null;
  }
}

export function usePublicConfig() {
  return useQuery({
    queryKey: ['public-config'],
    queryFn: fetchPublicConfig,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
