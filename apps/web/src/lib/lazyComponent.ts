import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { importOrReload } from './chunkReload';

export type LazyComponent<Props extends object> = LazyExoticComponent<ComponentType<Props>> & {
  /** Starts fetching the component's code without rendering it; never rejects (rendering reports the failure). */
  preload: () => Promise<void>;
};

/**
 * A component whose module (and the libraries only it uses) is fetched on first render, over a named
 * export. A fetch that failed is tried again after a pause; a stale chunk (a new version was deployed since the
 * page loaded) then reloads the page once, the loading view staying meanwhile; a second failure reaches the
 * nearest error boundary. Render it inside <Suspense>.
 */
export function lazyComponent<Name extends string, Props extends object>(
  load: () => Promise<{ [Key in Name]: ComponentType<Props> }>,
  name: Name,
): LazyComponent<Props> {
  let loading: Promise<{ [Key in Name]: ComponentType<Props> }> | undefined;
  const module = () => {
    // A failed fetch is not kept: the next ask fetches again (importOrReload asks again after a pause).
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };

  const component = lazy(async () => ({ default: (await importOrReload(name, module))[name] }));

  return Object.assign(component, {
    preload: () =>
      module().then(
        () => undefined,
        () => undefined,
      ),
  });
}
