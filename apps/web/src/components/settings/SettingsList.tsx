import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { AsyncSection, type Loadable } from '../AsyncSection';
import { EmptyState } from '../EmptyState';
import { Section } from '../Section';
import { settingsLoadError } from './SettingsLoadError';

/**
 * A settings tab's list under its heading: a spinner while it loads, the settings' load error when it cannot be
 * read, `empty` when it has no rows, else `children` with them (a table).
 */
export function SettingsList<Row>({
  title,
  description,
  query,
  empty,
  children,
}: {
  title: string;
  description: string;
  query: Loadable<Row[]>;
  empty: { icon: LucideIcon; title: string; description: string };
  children: (rows: Row[]) => ReactNode;
}) {
  return (
    <Section title={title} description={description}>
      <AsyncSection query={query} loading="list" failed={settingsLoadError} empty={<EmptyState {...empty} />}>
        {children}
      </AsyncSection>
    </Section>
  );
}
