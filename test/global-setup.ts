/**
 * Before the workers start: the add-on's bundle, built once from the current
 * sources if `npm run build` has not left it in the cache already (otherwise
 * every worker's first emulator would build its own at the same moment).
 */
import { sourceBundle } from '../dev/gas/bundle';

export default function setup(): void {
  sourceBundle();
}
