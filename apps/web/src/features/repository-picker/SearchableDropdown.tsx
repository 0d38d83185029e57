import { Check, ChevronDown, type LucideIcon, Search } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { cn, Spinner } from '../../components/ui';

export interface DropdownOption {
  value: string;
  label: string;
  detail?: ReactNode;
}

interface SearchableDropdownProps {
  label: string;
  /** What the closed control shows, after `icon`. */
  display: ReactNode;
  icon: LucideIcon;
  placeholder: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  search: string;
  onSearch: (term: string) => void;
  searchPlaceholder: string;
  /** At most 10, already filtered. */
  options: DropdownOption[];
  selected: string;
  onSelect: (value: string) => void;
  loading?: boolean;
  loadingText?: string;
  emptyText: string;
  /** 'Showing N of M ... Type to search more.' when the list was cut. */
  moreText: string | null;
  testId: string;
}

/** A button that opens a panel with a search box and a short list; Escape is handled by the dialog. */
export function SearchableDropdown(props: SearchableDropdownProps) {
  const { open, onOpenChange, options, selected } = props;
  const listId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) searchRef.current?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) onOpenChange(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open, onOpenChange]);

  return (
    <div ref={rootRef} className="relative" data-testid={props.testId}>
      <span className="mb-1.5 block text-sm font-medium text-zinc-800">{props.label}</span>
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={props.label}
        onClick={() => onOpenChange(!open)}
        className="flex w-full items-center justify-between gap-2 rounded-lg border border-zinc-300 bg-white px-3 py-2.5 text-left text-sm shadow-sm hover:border-zinc-400 focus:border-accent-500 focus:ring-2 focus:ring-accent-100 focus:outline-none"
      >
        <span className={cn('min-w-0 truncate', !selected && 'text-zinc-400')}>
          {props.loading ? (
            (props.loadingText ?? 'Loading...')
          ) : selected ? (
            <span className="inline-flex items-center gap-2">
              <props.icon className="h-4 w-4 text-zinc-400" aria-hidden="true" />
              {props.display}
            </span>
          ) : (
            props.placeholder
          )}
        </span>
        {props.loading ? (
          <Spinner size="sm" className="text-zinc-400" />
        ) : (
          <ChevronDown className={cn('h-4 w-4 shrink-0 text-zinc-400 transition', open && 'rotate-180')} />
        )}
      </button>
      {open && (
        <div className="mt-1 w-full overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-lg">
          <div className="relative border-b border-zinc-100 p-2">
            <Search className="pointer-events-none absolute top-1/2 left-4 h-4 w-4 -translate-y-1/2 text-zinc-400" />
            <input
              ref={searchRef}
              value={props.search}
              onChange={(event) => props.onSearch(event.target.value)}
              placeholder={props.searchPlaceholder}
              aria-label={props.searchPlaceholder}
              className="w-full rounded-md border border-zinc-200 py-1.5 pr-2 pl-8 text-sm focus:border-accent-500 focus:outline-none"
            />
          </div>
          <ul id={listId} aria-label={props.label} className="max-h-72 overflow-y-auto py-1">
            {options.map((option) => (
              <li key={option.value}>
                <button
                  type="button"
                  aria-pressed={option.value === selected}
                  onClick={() => {
                    props.onSelect(option.value);
                    onOpenChange(false);
                  }}
                  className={cn(
                    'flex w-full items-start justify-between gap-2 px-3 py-2 text-left text-sm hover:bg-zinc-50',
                    option.value === selected && 'bg-accent-50 text-accent-800',
                  )}
                >
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{option.label}</span>
                    {option.detail && <span className="block text-xs text-zinc-500">{option.detail}</span>}
                  </span>
                  {option.value === selected && (
                    <Check className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                  )}
                </button>
              </li>
            ))}
          </ul>
          {options.length === 0 && <p className="px-3 py-3 text-sm text-zinc-500">{props.emptyText}</p>}
          {props.moreText && (
            <p className="border-t border-zinc-100 bg-zinc-50 px-3 py-2 text-xs text-zinc-500">
              {props.moreText}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
