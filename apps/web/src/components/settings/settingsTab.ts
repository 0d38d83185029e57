import type { LucideIcon } from 'lucide-react';
import type { ComponentType } from 'react';

/**
 * One tab of Workspace Settings that an area of its own brings (domains, previews, backups): app/ hands these to
 * the settings page, so that page imports no other feature and a new area is one more entry.
 */
export interface SettingsTab {
  /** Its name in the address: `/workspace-settings?workspace=…&tab=backups`. */
  id: string;
  label: string;
  icon: LucideIcon;
  Panel: ComponentType<{ workspace: string }>;
}
