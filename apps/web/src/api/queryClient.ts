import { QueryClient } from '@tanstack/react-query';
import { httpStatus } from './errors';
import { onSignedOut } from './signOut';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      // Client errors will not get better by asking again.
      retry: (failureCount, error) => {
        const status = httpStatus(error);
        if (status !== undefined && status < 500) return false;
        return failureCount < 2;
      },
    },
  },
});

// Everything cached belonged to the old session.
onSignedOut(() => queryClient.clear());
