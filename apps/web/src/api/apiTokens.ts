import type { ApiToken, CreateApiToken, CreatedApiToken } from '@slipway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';

export const apiTokensKey = ['api-tokens'] as const;

/** GET /api/api-tokens: the signed-in user's tokens, newest first, without the tokens themselves. */
export function useApiTokens() {
  return useQuery({
    queryKey: apiTokensKey,
    queryFn: () => failingWith('Could not load your API tokens', () => callRoute('listApiTokens')),
    staleTime: 0,
  });
}

/** POST /api/api-tokens: the answer holds the token, once; the list is read again without it. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiToken): Promise<CreatedApiToken> =>
      failingWith('Could not create the token', () => callRoute('createApiToken', { body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensKey }),
  });
}

/** DELETE /api/api-tokens/{id}: the token stops working at its next use. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: ApiToken) =>
      failingWith(`Could not revoke ${token.name}`, () =>
        callRoute('revokeApiToken', { params: { id: token.id } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensKey }),
  });
}
