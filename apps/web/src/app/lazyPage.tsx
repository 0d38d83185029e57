import { type ComponentType, lazy } from 'react';

/** A page component loaded with its module on first render (React.lazy over a named export). */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): ComponentType {
  return lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
}
