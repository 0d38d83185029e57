import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { failingWith } from './failingWith';

/**
 * A change to one workspace's data: `send` (a failure thrown again in the server's words, else in `failure`'s),
 * then the cache learns of it: `answered` puts the answer in at once (what it returns is waited for: a re-read,
 * say), `reread` is read again once it settled, whether it went through or not.
 */
export function useWorkspaceMutation<Input, Answer>({
  failure,
  send,
  answered,
  reread,
}: {
  failure: string | ((input: Input) => string);
  send: (input: Input) => Promise<Answer>;
  answered?: (answer: Answer, cache: QueryClient) => unknown;
  reread?: QueryKey;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) =>
      failingWith(typeof failure === 'string' ? failure : failure(input), () => send(input)),
    onSuccess: (answer: Answer) => answered?.(answer, queryClient),
    onSettled: () => (reread ? queryClient.invalidateQueries({ queryKey: reread }) : undefined),
  });
}

/** Puts `changed` in place of its row (the one `same` finds) in the list cached under `key`. */
export const replaceRow = <Row>(
  cache: QueryClient,
  key: QueryKey,
  changed: Row,
  same: (row: Row) => boolean,
) => cache.setQueryData<Row[]>(key, (rows) => rows?.map((row) => (same(row) ? changed : row)));
