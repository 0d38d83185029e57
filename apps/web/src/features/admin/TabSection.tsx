import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button, Card, Spinner } from '../../components/ui';

/** A tab's card: title, optional count and actions, the Refresh button, and the content. */
export function TabSection({
  title,
  description,
  loading,
  onRefresh,
  actions,
  children,
}: {
  title: string;
  description?: ReactNode;
  loading: boolean;
  onRefresh: () => void;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <div className="flex flex-wrap items-center gap-3 border-b border-zinc-100 px-6 py-4">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
          {description && <p className="mt-0.5 text-sm text-zinc-500">{description}</p>}
        </div>
        {actions}
        <Button
          variant="secondary"
          size="sm"
          onClick={onRefresh}
          disabled={loading}
          icon={RefreshCw}
          iconClassName={loading ? 'h-4 w-4 animate-spin' : 'h-4 w-4'}
        >
          Refresh
        </Button>
      </div>
      <div className="px-6 py-5">{children}</div>
    </Card>
  );
}

/** First load: a spinner; later loads keep the old data on screen. */
export function TabBody({
  loading,
  hasData,
  empty,
  emptyText,
  children,
}: {
  loading: boolean;
  hasData: boolean;
  empty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  if (!hasData && loading) {
    return (
      <div role="status" className="flex items-center gap-3 py-8 text-sm text-zinc-500">
        <Spinner size="sm" /> Loading...
      </div>
    );
  }
  if (!hasData || empty) return <p className="py-8 text-center text-sm text-zinc-500">{emptyText}</p>;
  return children;
}

/** A tab's card around one loaded list: the card, and the list once `load` has data and `rows` are some. */
export function ListSection({
  load,
  rows,
  emptyText,
  children,
  ...section
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  load: { data: unknown; loading: boolean; reload: () => void };
  rows: readonly unknown[] | undefined;
  emptyText: string;
  children: ReactNode;
}) {
  return (
    <TabSection {...section} loading={load.loading} onRefresh={load.reload}>
      <TabBody
        loading={load.loading}
        hasData={load.data !== undefined}
        empty={rows?.length === 0}
        emptyText={emptyText}
      >
        {children}
      </TabBody>
    </TabSection>
  );
}
