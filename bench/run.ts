/**
 * `npm run bench`: prints the figures of every benchmark, each beside its
 * target where it has one. Everything on stdout is virtual time (or counts):
 * two runs print the same; what real time and CPU show goes to stderr. The
 * one exception is the cold start, whose figure is CPU time over paired runs
 * and moves a little with the machine's load (bench/cold-start.ts).
 * `--quick` runs small sizes only (a smoke run of the benchmark code itself).
 */
import { benchColdStart } from './cold-start';
import { benchDashboards } from './dashboards';
import { benchClosing } from './fechamento';
import { benchImport, benchTransactions } from './import';
import { benchIncremental } from './incremental';
import { benchConsolidated } from './consolidated';
import { benchOffice } from './office';
import { benchCentral } from './central';

const quick = process.argv.includes('--quick');

async function main(): Promise<void> {
  await benchColdStart(quick);
  // The naive baseline stops at 10,000: its appendRow per row makes 50,000 take longer than the rest together.
  await benchImport(quick ? [1_000] : [1_000, 10_000, 50_000], quick ? 1_000 : 10_000);
  await benchIncremental(quick ? 1_000 : 50_000);
  await benchConsolidated(quick ? 300 : 3_000);
  await benchDashboards(quick ? 1_000 : 50_000);
  await benchClosing(quick ? 1_000 : 50_000);
  await benchOffice(quick);
  await benchCentral(quick);
  try {
    const bulk = (await import('./bulk')) as { benchBulk?: (options?: { quick?: boolean }) => Promise<void> };
    if (bulk.benchBulk) await bulk.benchBulk({ quick });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
  }
  // The longest: last, so the figures above are printed whatever happens to it.
  await benchTransactions(quick ? 2_000 : 200_000);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
