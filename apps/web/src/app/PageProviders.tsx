import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from '../api/queryClient';
import { DialogsProvider } from '../components/DialogsProvider';

/**
 * What screens with server data need around them: the query cache and the design system's dialogs. This
 * module loads with such a screen's chunk, never before the landing page: the cache is one client for the
 * whole tab, so it outlives each screen's provider.
 */
export function withPageProviders<Props extends object>(Page: ComponentType<Props>): ComponentType<Props> {
  function ProvidedPage(props: Props) {
    return (
      <QueryClientProvider client={queryClient}>
        <DialogsProvider>
          <Page {...props} />
        </DialogsProvider>
      </QueryClientProvider>
    );
  }
  ProvidedPage.displayName = `withPageProviders(${Page.displayName ?? Page.name})`;
  return ProvidedPage;
}
