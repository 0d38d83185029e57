import { Trash2 } from 'lucide-react';
import type { DataColumn } from '../../components/DataTable';
import { Button, type ButtonVariant } from '../../components/ui';

/** The Actions column of a table whose rows can be removed: one small button with a bin icon. */
export function removeColumn<Row>(
  button: (row: Row) => {
    text: string;
    variant: ButtonVariant;
    loading: boolean;
    onClick: () => void;
    'aria-label'?: string;
  },
): DataColumn<Row> {
  return {
    header: 'Actions',
    alignEnd: true,
    cell: (row) => {
      const { text, ...props } = button(row);
      return (
        <Button size="sm" icon={Trash2} {...props}>
          {text}
        </Button>
      );
    },
  };
}
