import type { ComponentType } from 'react';
import { type LazyComponent, lazyComponent } from '../lib/lazyComponent';

/**
 * A screen with server data: its chunk and the page providers (query cache, dialogs) load side by side,
 * so the landing page's first JavaScript carries neither. Pages that read no query and open no dialog
 * (the landing, the static public pages) use lazyComponent alone.
 */
export function dataPage<Name extends string>(
  load: () => Promise<{ [Key in Name]: ComponentType<object> }>,
  name: Name,
): LazyComponent<object> {
  return lazyComponent(async () => {
    const [page, providers] = await Promise.all([load(), import('./PageProviders')]);
    return { [name]: providers.withPageProviders(page[name]) } as { [Key in Name]: ComponentType<object> };
  }, name);
}
