import { type ComponentType, lazy } from 'react';
import { chunkLoaded, isChunkLoadError, reloadOnceForStaleChunk } from './chunkReload';

/**
 * A page component loaded with its module on first render (React.lazy over a named export).
 * A stale chunk (a new version was deployed) reloads the page once; a second failure reaches the
 * route's error boundary.
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): ComponentType {
  return lazy(async (): Promise<{ default: ComponentType }> => {
    try {
      const page = (await load())[name];
      chunkLoaded();
      return { default: page };
    } catch (error) {
      // While the reload starts, stay on the loading view rather than flashing the error.
      if (isChunkLoadError(error) && reloadOnceForStaleChunk()) return new Promise(() => {});
      throw error;
    }
  });
}
