/**
 * Property tests draw the same cases on every run unless asked otherwise:
 * a failure is reproducible, and a mutant is judged against the same cases
 * each time. `FC_SEED=<n> npm test` (or FC_SEED=random) explores other draws.
 */
import fc from 'fast-check';

const asked = process.env.FC_SEED;
const seed = asked === 'random' ? Date.now() ^ (Math.random() * 0x100000000) : asked ? Number(asked) : 20261122;
fc.configureGlobal({ seed });
