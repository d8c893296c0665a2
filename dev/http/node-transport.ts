import type { Transport } from '../../src/api/transport';
import { syncFetch, syncFetchAll } from './sync-http';

/** The billing client's Transport for Node (tests, CLI, benchmarks). */
export const nodeTransport: Transport = {
  fetch: (request) => syncFetch(request),
  fetchAll: (requests) => syncFetchAll(requests),
};
