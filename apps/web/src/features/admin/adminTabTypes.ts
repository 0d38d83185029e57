/** What the panel lends every tab: banners, and a way to say "something changed, reload the stats". */
export interface AdminNotifier {
  /** An error banner (stays until dismissed). A 401 means the admin session is gone: back to the form. */
  failure: (prefix: string, error: unknown) => void;
  /** A notice banner that clears itself after `ms`. */
  notice: (text: string, ms: number) => void;
}

export interface AdminTabProps {
  /** Whether the tab is on screen (tabs stay mounted once visited, so their data is kept). */
  active: boolean;
  notify: AdminNotifier;
  /** After flush, whitelist and delete actions: reloads the stats (the tab reloads itself). */
  onChanged: () => void;
}
