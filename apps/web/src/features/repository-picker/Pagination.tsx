import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '../../components/ui';
import { pageWindow } from './repositoryListing';

/** Previous / up to 7 page buttons sliding with the current page / Next. */
export function Pagination({
  page,
  totalPages,
  onPage,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}) {
  if (totalPages <= 1) return null;
  const arrow =
    'inline-flex h-9 items-center gap-1 rounded-lg px-3 text-sm text-zinc-700 hover:bg-zinc-100 disabled:opacity-40';
  return (
    <nav aria-label="Pagination" className="mt-8 flex items-center justify-center gap-1">
      <button type="button" className={arrow} onClick={() => onPage(page - 1)} disabled={page <= 1}>
        <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Previous
      </button>
      {pageWindow(page, totalPages).map((number) => (
        <button
          key={number}
          type="button"
          onClick={() => onPage(number)}
          aria-current={number === page ? 'page' : undefined}
          aria-label={`Page ${number}`}
          className={cn(
            'h-9 min-w-9 rounded-lg px-2 text-sm font-medium',
            number === page ? 'bg-accent-600 text-white shadow-sm' : 'text-zinc-700 hover:bg-zinc-100',
          )}
        >
          {number}
        </button>
      ))}
      <button type="button" className={arrow} onClick={() => onPage(page + 1)} disabled={page >= totalPages}>
        Next <ChevronRight className="h-4 w-4" aria-hidden="true" />
      </button>
    </nav>
  );
}
