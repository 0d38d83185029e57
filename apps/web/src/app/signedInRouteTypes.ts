import type { LazyComponent } from '../lib/lazyComponent';
import type { Access } from './guards';

export interface AppRoute {
  path: string;
  access: Access;
  Page: LazyComponent<object>;
}
