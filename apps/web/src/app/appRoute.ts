import type { LazyComponent } from '../lib/lazyComponent';
import type { Access } from './guards';

/** One screen of a route table: its path, who may open it, and its lazy page. */
export interface AppRoute {
  path: string;
  access: Access;
  Page: LazyComponent<object>;
}
