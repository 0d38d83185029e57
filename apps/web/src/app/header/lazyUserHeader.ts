import { lazyComponent } from '../../lib/lazyComponent';

/**
 * The signed-in header (menu, avatar, 'Deploy New') is fetched once the session check finds a user, or at
 * start-up when the tab opens on a signed-in screen: a visitor's first JavaScript does not carry it.
 */
export const UserHeader = lazyComponent(() => import('./UserHeader'), 'UserHeader');
