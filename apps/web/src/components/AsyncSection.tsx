import type { ReactNode } from 'react';
import { Spinner } from './ui';

/**
 * What a query has to show, as TanStack Query's result says it (a screen's own loading state can say it too):
 * still loading, failed, or its data.
 */
export type Loadable<Data> =
  | { isPending: true; isError: false }
  | { isPending: false; isError: true; error: Error }
  | { isPending: false; isError: false; data: Data };

/** Where the spinner sits: centred in a whole tab, under a list's heading, inside a card, or inline. */
const LOADING = {
  tab: 'flex justify-center py-16',
  list: 'flex justify-center py-10',
  card: 'flex justify-center py-6',
} as const;

export type LoadingLook = keyof typeof LOADING | 'inline';

const isEmptyList = (data: unknown) => Array.isArray(data) && data.length === 0;

/**
 * A part of a screen that shows one query: a spinner while it loads, `failed` when it could not be read (a
 * failed refresh included, so what is shown is never silently stale), `empty` when there is nothing (by default,
 * an empty list), else `children` with the data.
 */
export function AsyncSection<Data>({
  query,
  loading = 'tab',
  failed,
  empty,
  isEmpty = isEmptyList,
  children,
}: {
  query: Loadable<Data>;
  loading?: LoadingLook;
  failed: ReactNode | ((error: Error) => ReactNode);
  /** Shown instead of `children` when `isEmpty` says the data holds nothing; without it, `children` always. */
  empty?: ReactNode;
  isEmpty?: (data: Data) => boolean;
  children: (data: Data) => ReactNode;
}) {
  if (query.isPending) {
    const spinner = <Spinner size={loading === 'inline' ? 'sm' : 'md'} className="text-accent-600" />;
    return loading === 'inline' ? spinner : <div className={LOADING[loading]}>{spinner}</div>;
  }
  if (query.isError) return typeof failed === 'function' ? failed(query.error) : failed;
  if (empty !== undefined && isEmpty(query.data)) return empty;
  return children(query.data);
}
