import { Fragment, type HTMLAttributes, type ReactNode } from 'react';
import { Card } from './ui/Card';
import { cn } from './ui/cn';

/** One column: its header and how a row fills its cell. */
export interface DataColumn<Row> {
  /** Header text; also the column's identity (keys), so unique within a table. */
  header: string;
  /** Shown instead of `header` (e.g. a visually hidden label); `header` stays the key. */
  headerContent?: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Classes added to this column's cells. */
  className?: string;
  /** Classes added to this column's header cell. */
  headerClassName?: string;
  /** Right-aligned header and cells (an actions column). */
  alignEnd?: boolean;
  /**
   * Hidden on a phone, where its content goes under the first column's instead of off the screen's edge: its
   * cell, or what this function renders there.
   */
  stacksOnPhone?: true | ((row: Row) => ReactNode);
  /** Where it goes among the stacked columns on a phone, lower first; by default, in the table's order. */
  phoneOrder?: number;
}

const WIDE_ONLY = 'hidden sm:table-cell';

/** The last column of a table whose rows can be acted on: its buttons at the row's end, its header for screen readers. */
export function actionsColumn<Row>(
  cell: (row: Row) => ReactNode,
  options: Pick<DataColumn<Row>, 'stacksOnPhone'> = {},
): DataColumn<Row> {
  return {
    header: 'Actions',
    headerContent: <span className="sr-only">Actions</span>,
    alignEnd: true,
    cell,
    ...options,
  };
}

/** The first column's cell, and on a phone under it, each on a line of its own, the columns hidden there. */
function firstCell<Row>(first: DataColumn<Row>, stacked: DataColumn<Row>[], row: Row): ReactNode {
  if (stacked.length === 0) return first.cell(row);
  const lines = stacked
    .map((column) => ({
      key: column.header,
      content: column.stacksOnPhone === true ? column.cell(row) : column.stacksOnPhone?.(row),
    }))
    .filter(({ content }) => content !== false && content !== null && content !== undefined);
  return (
    <div className="space-y-3">
      {first.cell(row)}
      <div className="space-y-3 sm:hidden">
        {lines.map(({ key, content }) => (
          <div key={key}>{content}</div>
        ))}
      </div>
    </div>
  );
}

/**
 * How dense the table is and what holds it: `panel` (the admin tabs: uppercase headers, wide),
 * `card` (a table on a card of its own), `tall` (the same, its rows holding several lines each: roomier, aligned
 * at the top), `compact` (a small table inside a panel).
 */
export type DataTableLook = 'panel' | 'card' | 'tall' | 'compact';

const LOOKS: Record<
  DataTableLook,
  { table: string; head: string; body?: string; th: string; row?: string; td: string }
> = {
  panel: {
    table: 'w-full min-w-[720px] text-left text-sm',
    head: 'border-b border-zinc-200 text-xs font-medium tracking-wide text-zinc-500 uppercase',
    th: 'px-3 py-2 font-medium',
    row: 'border-b border-zinc-100 last:border-0 align-top',
    td: 'px-3 py-3 text-zinc-700',
  },
  card: {
    table: 'w-full text-left text-sm',
    head: 'border-b border-zinc-100 text-xs text-zinc-500',
    body: 'divide-y divide-zinc-100',
    th: 'px-4 py-2 font-medium',
    td: 'px-4 py-2',
  },
  tall: {
    table: 'w-full text-left text-sm',
    head: 'border-b border-zinc-100 text-xs text-zinc-500',
    body: 'divide-y divide-zinc-100',
    th: 'px-4 py-2 font-medium',
    td: 'px-4 py-3 align-top',
  },
  compact: {
    table: 'w-full text-left text-sm',
    head: 'text-xs text-zinc-500',
    body: 'divide-y divide-zinc-100',
    th: 'py-1.5 pr-3 font-medium',
    td: 'py-1.5 pr-3',
  },
};

/** Extra attributes of a row (test ids, data attributes). */
type RowAttributes = HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;

/** The one table of the app: a header row from `columns`, a body row per item of `rows`, scrolling sideways. */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowAttributes,
  rowDetail,
  look = 'panel',
  className,
}: {
  /** The table's accessible name. */
  label?: string;
  columns: ReadonlyArray<DataColumn<Row> | false>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowAttributes?: (row: Row) => RowAttributes;
  /** What to show under a row, across all its columns (what to do next about it); nothing for none. */
  rowDetail?: (row: Row) => ReactNode;
  look?: DataTableLook;
  /** Classes of the scrolling box around the table. */
  className?: string;
}) {
  const style = LOOKS[look];
  const shown = columns.filter((column): column is DataColumn<Row> => column !== false);
  const stacked = shown
    .slice(1)
    .filter((column) => column.stacksOnPhone)
    .map((column, index) => ({ column, order: column.phoneOrder ?? index }))
    .sort((a, b) => a.order - b.order)
    .map(({ column }) => column);
  // What a column's header and cells share: their alignment, and whether a phone shows them.
  const placed = (column: DataColumn<Row>) =>
    cn(column.alignEnd && 'text-right', stacked.includes(column) && WIDE_ONLY);
  const table = (
    <table className={style.table} aria-label={label}>
      <thead className={style.head}>
        <tr>
          {shown.map((column) => (
            <th key={column.header} className={cn(style.th, placed(column), column.headerClassName)}>
              {column.headerContent ?? column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={style.body}>
        {rows.map((row) => {
          const detail = rowDetail?.(row);
          const hasDetail = detail !== undefined && detail !== null && detail !== false;
          return (
            <Fragment key={rowKey(row)}>
              <tr
                className={style.row}
                // The row and its detail read as one: no rule between them.
                style={hasDetail ? { borderBottomWidth: 0 } : undefined}
                {...rowAttributes?.(row)}
              >
                {shown.map((column, index) => (
                  <td key={column.header} className={cn(style.td, placed(column), column.className)}>
                    {index === 0 ? firstCell(column, stacked, row) : column.cell(row)}
                  </td>
                ))}
              </tr>
              {hasDetail && (
                <tr className={style.row}>
                  <td colSpan={shown.length} className={cn(style.td, 'pt-0')}>
                    {detail}
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
  // `relative`: a visually hidden header (absolutely positioned) scrolls with the table instead of
  // widening the page on a phone.
  if (look === 'card' || look === 'tall')
    return <Card className={cn('relative overflow-x-auto', className)}>{table}</Card>;
  return <div className={cn('relative overflow-x-auto', className)}>{table}</div>;
}
