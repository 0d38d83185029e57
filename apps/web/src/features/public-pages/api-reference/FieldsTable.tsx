import { DataTable } from '../../../components/DataTable';
import { InlineCode } from './InlineCode';
import type { FieldRow } from './openApiReading';

/** Parameters or the fields of a body, one row each: name, where (for parameters), type, required, description. */
export function FieldsTable({
  label,
  rows,
}: {
  label: string;
  rows: readonly (FieldRow & { in?: string })[];
}) {
  const withPlace = rows.some((row) => row.in);
  return (
    <DataTable
      label={label}
      look="compact"
      rows={rows}
      rowKey={(row) => `${row.in ?? ''} ${row.name}`}
      columns={[
        {
          header: 'Name',
          cell: (row) => <code className="font-mono text-xs text-zinc-900">{row.name}</code>,
          className: 'w-1/4 whitespace-nowrap',
        },
        withPlace && { header: 'In', cell: (row) => row.in, className: 'text-zinc-500' },
        {
          header: 'Type',
          cell: (row) => <span className="font-mono text-xs break-words text-zinc-700">{row.type}</span>,
          className: 'w-1/3',
        },
        {
          header: 'Required',
          cell: (row) => (row.required ? 'yes' : <span className="text-zinc-400">no</span>),
          className: 'w-20',
        },
        {
          header: 'Description',
          cell: (row) => <InlineCode text={row.description} />,
          className: 'text-zinc-600',
        },
      ]}
    />
  );
}
