/** UrlFetch requests this execution has sent: the transport counts, usage.ts records them. */
let fetched = 0;

export function countFetches(n: number): void {
  fetched += n;
}

/** The count so far, reset to zero. */
export function takeFetches(): number {
  const n = fetched;
  fetched = 0;
  return n;
}
