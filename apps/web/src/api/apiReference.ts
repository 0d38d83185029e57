import { useQuery } from '@tanstack/react-query';
import { callRoute } from './routeClient';

/** GET /api/openapi.json: the API's OpenAPI document. It changes only with a new server, so read once. */
export function useApiReference() {
  return useQuery({
    queryKey: ['openapi'],
    queryFn: () => callRoute('openApiDocument'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
