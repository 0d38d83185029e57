import { useMemo, useState } from 'react';
import { Input, Select } from '../../../components/ui';
import { countOf, NOUNS } from '../../../lib/plural';
import { ContainerCard } from './ContainerCard';
import { type ContainerSort, listContainers, SORT_OPTIONS } from './containerListing';
import type { ContainerMetrics } from './containerMetrics';

/** The container cards with a filter (workspace, service, image, owner, name) and a sort order. */
export function ContainerGrid({ containers }: { containers: ContainerMetrics[] }) {
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<ContainerSort>('workspace');
  const shown = useMemo(() => listContainers(containers, filter, sort), [containers, filter, sort]);

  return (
    <section aria-label="Containers" className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-80">
          <Input
            label="Filter containers"
            type="search"
            placeholder="Workspace, service, image or owner"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
        </div>
        <div className="sm:w-56">
          <Select
            label="Sort by"
            options={SORT_OPTIONS}
            value={sort}
            onChange={(event) => setSort(event.target.value as ContainerSort)}
          />
        </div>
        <p className="text-sm text-zinc-600 sm:ml-auto" data-testid="container-count">
          {`Showing ${shown.length} of ${countOf(containers.length, NOUNS.container)}`}
        </p>
      </div>
      {shown.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 py-10 text-center text-sm text-zinc-500">
          No containers match this filter
        </p>
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
          {shown.map((container) => (
            <ContainerCard key={container.id} container={container} />
          ))}
        </div>
      )}
    </section>
  );
}
